export function Component() {
  return <main><h1>pricing</h1></main>;
}
