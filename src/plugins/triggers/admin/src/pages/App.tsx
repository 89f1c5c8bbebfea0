import { Page } from '@strapi/strapi/admin';
import { Route, Routes } from 'react-router-dom';
import { PERMISSIONS } from '../permissions';
import { InstancePage } from './InstancePage';
import { OrganizationPage } from './OrganizationPage';
import { OrganizationsPage } from './OrganizationsPage';

/** /admin/plugins/triggers/*: the trigger panel, for admins holding plugin::triggers.read. */
const App = () => (
  <Page.Protect permissions={PERMISSIONS.read}>
    <Routes>
      <Route index element={<OrganizationsPage />} />
      <Route path="organizations/:orgId" element={<OrganizationPage />} />
      <Route path="instances/:pid" element={<InstancePage />} />
      <Route path="*" element={<Page.Error />} />
    </Routes>
  </Page.Protect>
);

export default App;
