export function Component() {
  return <main><h1>settings</h1></main>;
}
