export function Component() {
  return <main><h1>features</h1></main>;
}
