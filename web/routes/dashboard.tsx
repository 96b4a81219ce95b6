export function Component() {
  return <main><h1>dashboard</h1></main>;
}
