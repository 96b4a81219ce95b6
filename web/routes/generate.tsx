export function Component() {
  return <main><h1>generate</h1></main>;
}
