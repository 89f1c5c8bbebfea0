'use strict';
// Jest resolves the plugins' `#kernel/...` imports as the compiler and Node do: compiled files
// (dist/) through the "imports" of package.json, to the compiled kernel; sources (what the unit
// tests load) to the kernel's sources, as tsconfig.json's "paths" say. One kernel per side, never
// both for one file: its registries hold state.
const path = require('path');

const root = path.resolve(__dirname, '..', '..');
const dist = path.join(root, 'dist') + path.sep;

module.exports = (request, options) => {
  if (request.startsWith('#kernel/') && !options.basedir.startsWith(dist)) {
    return options.defaultResolver(path.join(root, 'src', 'kernel', request.slice('#kernel/'.length)), options);
  }
  return options.defaultResolver(request, options);
};
