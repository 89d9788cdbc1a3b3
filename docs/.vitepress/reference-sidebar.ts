import { readFileSync } from 'node:fs';
import type { DefaultTheme } from 'vitepress';

const generated = JSON.parse(
  readFileSync(new URL('../reference/typedoc-sidebar.json', import.meta.url), 'utf8'),
) as DefaultTheme.SidebarItem[];

/** The API reference's sidebar, as `tools/api-reference` generated it with the pages. */
export const referenceSidebar: DefaultTheme.SidebarItem[] = [
  { text: 'API reference', link: '/reference/' },
  ...generated,
];
