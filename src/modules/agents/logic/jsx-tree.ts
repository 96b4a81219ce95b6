// A tiny element tree that DesignNinja builds once and then prints two ways: as TSX source for
// people to copy, and as static HTML for the preview. A test executes the printed source and
// checks it renders the very same markup.
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";

export type StyleValue = string | number;
export type Style = Record<string, StyleValue>;

export interface El {
  tag: string;
  style?: Style;
  attrs?: Record<string, string>;
  /** Name of a callback prop wired to onClick. */
  onClick?: string;
  children?: Child[];
}
/** Literal text, or the value of a string prop. */
export type Child = El | { text: string } | { prop: string };

export interface PropDef {
  name: string;
  default: string;
}

export interface ComponentSpec {
  name: string;
  /** Line comments at the top of the file. */
  header: string[];
  props: PropDef[];
  /** Callback props (no default). */
  callbacks: string[];
  root: El;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TAGS = new Set(["section", "div", "h1", "h2", "h3", "p", "span", "button", "a", "nav", "ul", "li", "strong", "header"]);
const ATTRS = new Set(["type", "href", "aria-label", "role"]);

function check(spec: ComponentSpec): void {
  if (!IDENT.test(spec.name)) throw new Error(`bad component name ${spec.name}`);
  for (const p of [...spec.props.map((p) => p.name), ...spec.callbacks]) if (!IDENT.test(p)) throw new Error(`bad prop ${p}`);
  const walk = (el: El) => {
    if (!TAGS.has(el.tag)) throw new Error(`tag ${el.tag} not allowed`);
    for (const k of Object.keys(el.style ?? {})) if (!/^[a-zA-Z]+$/.test(k)) throw new Error(`style key ${k} not allowed`);
    for (const [k, v] of Object.entries(el.attrs ?? {}))
      if (!ATTRS.has(k) || !/^[A-Za-z0-9 #\-_.:/]*$/.test(v)) throw new Error(`attribute ${k} not allowed`);
    for (const c of el.children ?? []) if ("tag" in c) walk(c);
  };
  walk(spec.root);
}

function printStyle(style: Style): string {
  const parts = Object.entries(style).map(([k, v]) => `${k}: ${typeof v === "number" ? String(v) : JSON.stringify(v)}`);
  return `{{ ${parts.join(", ")} }}`;
}

/** JSX text can't hold {, }, < or >; anything unusual goes in as a string expression. */
function printText(text: string): string {
  return /^[A-Za-z0-9 .,!?'’$/:;()+&-]*$/.test(text) && text.trim() === text && !text.includes("&") ? text : `{${JSON.stringify(text)}}`;
}

function printEl(el: El, depth: number): string {
  const pad = "  ".repeat(depth);
  const attrs = [
    ...Object.entries(el.attrs ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`),
    ...(el.onClick ? [`onClick={${el.onClick}}`] : []),
    ...(el.style ? [`style=${printStyle(el.style)}`] : []),
  ];
  const open = `<${el.tag}${attrs.length ? " " + attrs.join(" ") : ""}`;
  const kids = el.children ?? [];
  if (!kids.length) return `${pad}${open} />`;
  const inner = kids.map((c) => ("tag" in c ? printEl(c, depth + 1) : `${pad}  ${"prop" in c ? `{${c.prop}}` : printText(c.text)}`));
  return `${pad}${open}>\n${inner.join("\n")}\n${pad}</${el.tag}>`;
}

/** The generated file: typed props with defaults, inline styles, a named and a default export. */
export function printTsx(spec: ComponentSpec): string {
  check(spec);
  const propsType = `${spec.name}Props`;
  const fields = [...spec.props.map((p) => `  ${p.name}?: string;`), ...spec.callbacks.map((c) => `  ${c}?: () => void;`)];
  const params = [...spec.props.map((p) => `${p.name} = ${JSON.stringify(p.default)}`), ...spec.callbacks];
  return [
    ...spec.header.map((l) => `// ${l.replace(/[\r\n]+/g, " ")}`),
    "",
    `export interface ${propsType} {`,
    ...fields,
    "}",
    "",
    `export function ${spec.name}({ ${params.join(", ")} }: ${propsType}) {`,
    "  return (",
    printEl(spec.root, 2),
    "  );",
    "}",
    "",
    `export default ${spec.name};`,
    "",
  ].join("\n");
}

function build(el: El, props: Record<string, string>): ReactNode {
  const children = (el.children ?? []).map((c) => ("tag" in c ? build(c, props) : "prop" in c ? props[c.prop] : c.text));
  // Same prop order as the printed JSX (attributes, then style), so both render identical markup.
  return createElement(el.tag, { ...el.attrs, style: el.style }, ...children);
}

/** What the component renders with its default props. */
export function renderSpec(spec: ComponentSpec): string {
  check(spec);
  const props = Object.fromEntries(spec.props.map((p) => [p.name, p.default]));
  return renderToStaticMarkup(build(spec.root, props));
}
