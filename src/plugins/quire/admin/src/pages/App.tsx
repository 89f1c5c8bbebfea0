import { Page } from '@strapi/strapi/admin';
import { Route, Routes } from 'react-router-dom';
import { PERMISSIONS } from '../permissions';
import { ArticlePage } from './ArticlePage';
import { ArticlesPage } from './ArticlesPage';
import { TrashPage } from './TrashPage';

/** /admin/plugins/quire/*: the pages of the plugin, for admins holding plugin::quire.read. */
const App = () => (
  <Page.Protect permissions={PERMISSIONS.read}>
    <Routes>
      <Route index element={<ArticlesPage />} />
      <Route path="articles/:id" element={<ArticlePage />} />
      <Route path="trash" element={<TrashPage />} />
      <Route path="*" element={<Page.Error />} />
    </Routes>
  </Page.Protect>
);

export default App;
