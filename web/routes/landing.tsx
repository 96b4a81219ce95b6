export function Component() {
  return <main><h1>landing</h1></main>;
}
