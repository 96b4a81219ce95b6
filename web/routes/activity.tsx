export function Component() {
  return <main><h1>activity</h1></main>;
}
