/** Greets `name`; replace with the package's real API. */
export function hello(name: string): string {
  return `hello, ${name}`;
}
