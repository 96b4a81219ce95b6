export function Component() {
  return <main><h1>comparison-view</h1></main>;
}
