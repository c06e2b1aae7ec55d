/**
 * The import rules of src/ (issues 21 and 31): no cycles, and every arrow points down — lib and db
 * know nothing of the modules, no module reaches into the built-in engine but the extraction
 * process that runs it, readers know no engine, nothing below the entry points imports the config,
 * the app or the CLI, and nothing in src imports the tests. lib knows no web framework but in the
 * field model, of which the extraction processes take only types; the console's browser code speaks
 * the API only. The data layer (D210–D214): each table file belongs to one module, a repository
 * imports no other module, and no module knows which database it runs on.
 * Checked by `npm run lint` (dependency-cruiser).
 */

/** Who owns each table file of src/db/tables/ (D214): only the owner (and src/db/) imports it. */
const TABLE_OWNERS = {
  accounts: 'src/modules/keys/',
  schemas: 'src/modules/schemas/',
  jobs: 'src/modules/extraction/',
  webhooks: 'src/modules/webhooks/',
  reviews: 'src/modules/reviews/',
  idempotency: 'src/http/idempotency-store\\.ts$',
}

module.exports = {
  forbidden: [
    ...Object.entries(TABLE_OWNERS).map(([table, owner]) => ({
      name: `${table}-tables-are-${owner.split('/')[2].replace(/\W.*/, '')}-only`,
      severity: 'error',
      comment: `The tables of ${table}.ts are read and written by their own module only: another module asks that module's service (D214).`,
      from: { path: '^src/', pathNot: `^(${owner}|src/db/)` },
      to: { path: `^src/db/tables/${table}\\.ts$` },
    })),
    {
      name: 'all-tables-are-the-db-layers',
      severity: 'error',
      comment: 'The lists of every table (for db copy, drizzle-kit) are not a way into other modules\' tables.',
      from: { path: '^src/', pathNot: '^src/db/' },
      to: { path: '^src/db/tables/(index|sqlite|postgres)\\.ts$' },
    },
    {
      name: 'repositories-stay-in-their-module',
      severity: 'error',
      comment: 'A repository queries its own tables and takes no other module\'s code or callbacks: the service composes modules (D213).',
      from: { path: '^src/modules/([^/]+)/repository\\.ts$' },
      to: { path: '^src/modules/', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'one-query-for-both-dialects',
      severity: 'error',
      comment: 'Modules write each query once against src/db/dialect.ts; what differs per database lives in src/db/sqlite.ts and postgres.ts (D210).',
      from: { path: '^src/(modules|http|lib)/' },
      to: { path: '^src/db/(sqlite|postgres)\\.ts$|node_modules/drizzle-orm/(sqlite-core|pg-core|bun-sqlite|node-postgres)/|node_modules/pg/|^bun:sqlite$' },
    },
    { name: 'no-circular', severity: 'error', comment: 'Files that import each other in a circle.', from: {}, to: { circular: true } },
    {
      name: 'lib-is-the-floor',
      severity: 'error',
      comment: 'src/lib is shared by everything above it and imports none of it.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(db|http|modules|cli)/|^src/(config|app|main)\\.ts$' },
    },
    {
      name: 'db-below-modules',
      severity: 'error',
      comment: 'Tables and migrations know nothing of the modules that use them.',
      from: { path: '^src/db/' },
      to: { path: '^src/(http|modules|cli)/|^src/(config|app|main)\\.ts$' },
    },
    {
      name: 'modules-below-entry',
      severity: 'error',
      comment: 'Modules get their settings passed in; the config is read once, at the entry.',
      from: { path: '^src/(modules|http|db|lib)/' },
      to: { path: '^src/(cli)/|^src/(config|app|main)\\.ts$' },
    },
    {
      name: 'readers-below-engines',
      severity: 'error',
      comment: 'Readers turn bytes into text for any engine and know none; both throw the job errors of extraction/errors.ts.',
      from: { path: '^src/modules/extraction/readers/' },
      to: { path: '^src/modules/extraction/engines/' },
    },
    {
      name: 'product-without-tests',
      severity: 'error',
      comment: 'The product never depends on its tests; tests may import anything of src, the generated API types too.',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
    {
      name: 'lib-framework-free',
      severity: 'error',
      comment: 'src/lib knows no web framework; only the models of a field and its answer are written with Elysia`s t (D201).',
      from: { path: '^src/lib/', pathNot: '^src/lib/fields/model\\.ts$' },
      to: { path: '(^|/)node_modules/elysia/' },
    },
    {
      name: 'extraction-processes-take-types-of-the-models',
      severity: 'error',
      comment: 'What runs in an extraction process takes only types from the models, so its code loads neither Elysia nor TypeBox (D201).',
      from: {
        path: '^src/modules/extraction/(engines|readers|normalise)/|^src/modules/extraction/(answers|confidence|errors|extractor|extract-process|locate)\\.ts$|^src/lib/(fields/(concepts|types)|lexicon/|text)',
      },
      to: { path: '^src/lib/fields/model\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'console-speaks-the-api',
      severity: 'error',
      comment: 'The console runs in the browser and speaks the public API only: its own files (its API types generated into ui/generated), and the list of field types.',
      from: { path: '^src/modules/console/ui/' },
      to: { path: '^src/', pathNot: '^src/modules/console/ui/|^src/lib/fields/types\\.ts$' },
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
