/** Shapes of our admin routes' answers (src/kernel/admin-routes.ts). */
export interface Pagination {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
}

export interface AdminList<T> {
  data: T[];
  meta: { pagination: Pagination };
}

export interface AdminItem<T> {
  data: T;
}
