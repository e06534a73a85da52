/// <reference path="./types.d.ts" />
import { A } from "./a";
/** Doc. */
export interface Shape {
  area(): number;
  name: string;
}
export type Id = string | number;
export class Square implements Shape {
  constructor(private side: number) {
    this.name = "square";
  }
  name: string;
  area(): number {
    return this.side ** 2;
  }
}
export function generic<T extends object>(x: T): T {
  const s = `// ${x}`;
  return x;
}
declare function ambient(x: number): void;
// @ts-ignore: a directive to the compiler, not a comment to drop
export const loose: number = ambient(1) as unknown as number;
