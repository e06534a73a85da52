import React from "react";
/** Props doc. */
interface Props { title: string }
export function Title({ title }: Props) {
  const n = 1;
  return <h1 className="t">{ }{title} // not a comment</h1>;
}
export const Arrow = (p: Props) => {
  return <span>{p.title}</span>;
};
export const Card = ({ title }: Props) => (
  <div className="card">
    <h2>{title}</h2>
  </div>
);
export const selectTitle = (p: Props): { title: string } => ({
  title: p.title,
});
