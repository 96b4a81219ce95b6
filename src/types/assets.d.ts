// Non-code imports: migrations are embedded as text, stylesheets are bundled by Bun.build.
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.css";
