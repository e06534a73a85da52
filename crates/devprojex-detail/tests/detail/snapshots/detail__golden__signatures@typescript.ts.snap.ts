/// <reference path="./types.d.ts" />
import { A } from "./a";
/** Doc. */
export interface Shape {
  area(): number;
  name: string;
}
export type Id = string | number;
export class Square implements Shape {
  constructor(private side: number) { /* ... */ }
  name: string;
  area(): number { /* ... */ }
}
export function generic<T extends object>(x: T): T { /* ... */ }
declare function ambient(x: number): void;
// @ts-ignore: a directive to the compiler, not a comment to drop
export const loose: number = ambient(1) as unknown as number;
