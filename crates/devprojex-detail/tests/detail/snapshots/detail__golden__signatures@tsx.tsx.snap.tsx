import React from "react";
/** Props doc. */
interface Props { title: string }
export function Title({ title }: Props) { /* ... */ }
export const Arrow = (p: Props) => { /* ... */ };
export const Card = ({ title }: Props) => { /* ... */ };
export const selectTitle = (p: Props): { title: string } => { /* ... */ };
