export function Component() {
  return <main><h1>tests</h1></main>;
}
