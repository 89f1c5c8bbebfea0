'use strict';
// The admin bundle resolves the plugins' `#kernel/...` imports (src/kernel/admin-ui) as the
// compilers do (tsconfig.admin.json "paths"). Strapi merges this into its Vite config.
const path = require('path');

module.exports = (config) => ({
  ...config,
  resolve: { ...config.resolve, alias: { ...config.resolve?.alias, '#kernel': path.join(__dirname, '..', 'kernel') } },
});
