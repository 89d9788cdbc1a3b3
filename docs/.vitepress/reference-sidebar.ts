import type { DefaultTheme } from 'vitepress';
import generated from '../reference/typedoc-sidebar.json' with { type: 'json' };

/** The API reference's sidebar, as `tools/api-reference` generated it with the pages. */
export const referenceSidebar: DefaultTheme.SidebarItem[] = [
  { text: 'API reference', link: '/reference/' },
  ...(generated as DefaultTheme.SidebarItem[]),
];
