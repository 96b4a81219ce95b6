export function Component() {
  return <main><h1>signup</h1></main>;
}
