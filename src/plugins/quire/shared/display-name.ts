/**
 * An admin's name as people see it: first and last name, else the username, else the email
 * (revisions, the trash, events and presence name an editor this way, on the server and in
 * the canvas alike). Pure code, shared by the server and the admin bundle.
 */
export interface AdminNameParts {
  firstname?: string | null;
  lastname?: string | null;
  username?: string | null;
  email?: string | null;
}

export function adminDisplayName(user: AdminNameParts): string {
  return [user.firstname, user.lastname].filter(Boolean).join(' ') || user.username || user.email || '';
}
