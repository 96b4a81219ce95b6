export function Component() {
  return <main><h1>super-admin</h1></main>;
}
