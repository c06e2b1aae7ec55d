/**
 * The import rules of src/ (issue 21): no cycles, and every arrow points down — lib and db know
 * nothing of the modules, no module reaches into the built-in engine but the extraction process
 * that runs it, and nothing below the entry points imports the config, the app or the CLI.
 * Checked by `npm run lint` (dependency-cruiser).
 */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Files that import each other in a circle.', from: {}, to: { circular: true } },
    {
      name: 'lib-is-the-floor',
      severity: 'error',
      comment: 'src/lib is shared by everything above it and imports none of it.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(db|http|modules|cli|console)/|^src/(config|app|main)\\.ts$' },
    },
    {
      name: 'db-below-modules',
      severity: 'error',
      comment: 'Tables and migrations know nothing of the modules that use them.',
      from: { path: '^src/db/' },
      to: { path: '^src/(http|modules|cli|console)/|^src/(config|app|main)\\.ts$' },
    },
    {
      name: 'modules-below-entry',
      severity: 'error',
      comment: 'Modules get their settings passed in; the config is read once, at the entry.',
      from: { path: '^src/(modules|http|db|lib)/' },
      to: { path: '^src/(cli)/|^src/(config|app|main)\\.ts$' },
    },
    {
      name: 'builtin-engine-is-private',
      severity: 'error',
      comment: 'Only the extraction process picks the built-in engine; everything else goes through engines/types.',
      from: { path: '^src/', pathNot: '^src/modules/extraction/(engines/builtin/|extract-process\\.ts$)' },
      to: { path: '^src/modules/extraction/engines/builtin/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
}
