/**
 * Builds DOM nodes from data without ever parsing it as markup: text goes in as text nodes and
 * attributes through `setAttribute`, so a payload holding `<script>` is shown as those characters.
 */

/** A child: a node, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Attributes and listeners of an element. */
export interface Properties {
  readonly class?: string;
  readonly title?: string;
  readonly href?: string;
  readonly id?: string;
  readonly attributes?: Readonly<Record<string, string>>;
  readonly onClick?: (event: MouseEvent) => void;
  readonly onSubmit?: (event: SubmitEvent) => void;
  readonly onChange?: (event: Event) => void;
}

/** An HTML element with `properties` and `children`. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Properties = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, properties);
  element.append(...nodes(children));
  return element;
}

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with its attributes (numbers are written as they are) and children. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | number>> = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...nodes(children));
  return element;
}

/** Replaces the children of `parent` with `children`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...nodes(children));
}

function apply(element: HTMLElement, properties: Properties): void {
  if (properties.class !== undefined) element.className = properties.class;
  if (properties.title !== undefined) element.title = properties.title;
  if (properties.id !== undefined) element.id = properties.id;
  if (properties.href !== undefined) element.setAttribute('href', properties.href);
  for (const [name, value] of Object.entries(properties.attributes ?? {})) {
    element.setAttribute(name, value);
  }
  if (properties.onClick) element.addEventListener('click', properties.onClick);
  if (properties.onSubmit) element.addEventListener('submit', properties.onSubmit);
  if (properties.onChange) element.addEventListener('change', properties.onChange);
}

function nodes(children: readonly Child[]): Node[] {
  return children.flatMap((child) =>
    child === null || child === undefined || child === false
      ? []
      : typeof child === 'string' || typeof child === 'number'
        ? [document.createTextNode(String(child))]
        : [child],
  );
}
