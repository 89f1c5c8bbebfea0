#!/usr/bin/env node
'use strict';
// npm run openapi: writes docs/openapi.json, the OpenAPI 3.1 document the server serves at
// GET /api/openapi.json (without its `servers`, which name the running server's PUBLIC_URL).
// It is made from the compiled route declarations, without booting Strapi; a test fails when
// the committed file is stale.
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const dist = (file) => path.join(root, 'dist', file);
const { openApiDocument, appVersion, apiDescriptionRoutes } = require(dist('src/kernel/openapi'));
const { ADMIN_SCHEME } = require(dist('src/kernel/auth'));
const { API_INFO } = require(dist('src/api-info'));
const quire = require(dist('src/plugins/quire/server/src/routes')).routes;
const triggers = require(dist('src/plugins/triggers/server/src/routes')).routes;
// The security schemes the plugins register with their credentials (in their register, on a server).
const { USER_CREDENTIAL_SCHEMES } = require(dist('src/plugins/quire/server/src/credentials'));
const { TRIGGER_CREDENTIAL_SCHEMES } = require(dist('src/plugins/triggers/server/src/credentials'));
const schemes = { ...USER_CREDENTIAL_SCHEMES, ...TRIGGER_CREDENTIAL_SCHEMES, admin: ADMIN_SCHEME };

const document = openApiDocument([...quire, ...triggers, ...Object.values(apiDescriptionRoutes)], { version: appVersion(root), info: API_INFO, schemes });
const target = path.join(root, 'docs', 'openapi.json');
fs.writeFileSync(target, JSON.stringify(document, null, 2) + '\n');
console.log(`Wrote ${path.relative(process.cwd(), target)}: ${Object.keys(document.paths).length} paths.`);
