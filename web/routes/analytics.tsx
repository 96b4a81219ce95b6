export function Component() {
  return <main><h1>analytics</h1></main>;
}
