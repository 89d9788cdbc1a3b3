import { defineConfig } from 'vitepress';
import { referenceSidebar } from './reference-sidebar.js';

// The site is built from this folder by `pnpm docs:build` (VitePress). A link to a page that does
// not exist fails the build: `ignoreDeadLinks` stays off.
export default defineConfig({
  title: 'duro',
  description: 'Durable execution for TypeScript on PostgreSQL',
  lang: 'en-US',
  cleanUrls: false,
  lastUpdated: false,
  srcExclude: ['examples/**', 'test/**', 'README.md'],
  markdown: { theme: { light: 'github-light', dark: 'github-dark' } },
  // The local search index and the API reference make one large chunk; it is served statically.
  vite: { build: { chunkSizeWarningLimit: 2_000 } },
  themeConfig: {
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Operating', link: '/operating/deploying-workers' },
      { text: 'Coming from', link: '/coming-from/duroxide-node' },
      { text: 'API reference', link: '/reference/' },
    ],
    sidebar: {
      '/reference/': referenceSidebar,
      '/': [
        {
          text: 'Start here',
          items: [
            { text: 'Getting started', link: '/guide/getting-started' },
            { text: 'Your first durable workflow', link: '/guide/first-workflow' },
            { text: 'The determinism rules', link: '/guide/determinism' },
          ],
        },
        {
          text: 'Writing orchestrations',
          items: [
            { text: 'Orchestrations and activities', link: '/guide/orchestrations-and-activities' },
            { text: 'Timers', link: '/guide/timers' },
            { text: 'External events', link: '/guide/external-events' },
            { text: 'Queues', link: '/guide/queues' },
            { text: 'Race and join', link: '/guide/race-and-join' },
            { text: 'Sub-orchestrations', link: '/guide/sub-orchestrations' },
            { text: 'Continue-as-new', link: '/guide/continue-as-new' },
            { text: 'Deterministic helpers', link: '/guide/deterministic-helpers' },
            { text: 'Key-value state', link: '/guide/key-value-state' },
            { text: 'Custom status', link: '/guide/custom-status' },
            { text: 'Error handling', link: '/guide/error-handling' },
            { text: 'Retries', link: '/guide/retries' },
            { text: 'Cancellation', link: '/guide/cancellation' },
            { text: 'Versioning and safe changes', link: '/guide/versioning' },
          ],
        },
        {
          text: 'Routing work',
          items: [
            { text: 'Sessions', link: '/guide/sessions' },
            { text: 'Activity tags', link: '/guide/tags' },
          ],
        },
        {
          text: 'Testing',
          items: [
            { text: 'Testing with the in-memory provider', link: '/guide/testing' },
            { text: 'Poison messages', link: '/guide/poison-messages' },
          ],
        },
        {
          text: 'Operating',
          items: [
            { text: 'Deploying workers', link: '/operating/deploying-workers' },
            { text: 'Connecting: TLS and Entra ID', link: '/operating/connecting' },
            { text: 'Schemas per tenant', link: '/operating/schemas-per-tenant' },
            { text: 'Upgrades and migrations', link: '/operating/migrations' },
            { text: 'Mixed Rust and TypeScript fleets', link: '/operating/mixed-fleets' },
            { text: 'The duro command', link: '/operating/duro-command' },
            { text: 'The dashboard: duro ui', link: '/operating/dashboard' },
            { text: 'Metrics, traces and logs', link: '/operating/observability' },
            { text: 'The PostgreSQL provider', link: '/operating/postgres-provider' },
            { text: 'The SQLite provider', link: '/operating/sqlite-provider' },
            { text: 'Performance tuning', link: '/operating/performance-tuning' },
          ],
        },
        {
          text: 'Coming from',
          items: [
            { text: 'duroxide-node', link: '/coming-from/duroxide-node' },
            { text: 'Temporal', link: '/coming-from/temporal' },
            { text: 'DBOS', link: '/coming-from/dbos' },
          ],
        },
      ],
    },
    footer: { message: 'MIT licensed' },
  },
});
