import React from "react";
/** Props doc. */
export function Title({ title }) {
  const n = 1;
  return <h1 className="t">{ }{title} // not a comment</h1>;
}
export const Arrow = (p) => {
  return <span>{p.title}</span>;
};
export const Card = ({ title, body }) => (
  <div className="card">
    <h2>{title}</h2>
    <p>{body}</p>
  </div>
);
export const double = (x) => x * 2;
