import React from "react";
/** Props doc. */
export function Title({ title }) { /* ... */ }
export const Arrow = (p) => { /* ... */ };
export const Card = ({ title, body }) => { /* ... */ };
export const double = (x) => x * 2;
