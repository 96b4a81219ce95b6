export function Component() {
  return <main><h1>trends</h1></main>;
}
