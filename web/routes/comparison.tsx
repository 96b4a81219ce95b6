export function Component() {
  return <main><h1>comparison</h1></main>;
}
