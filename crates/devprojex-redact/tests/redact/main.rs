//! devprojex-redact's behaviour: its corpus and Gitleaks', private data, properties, the rules
//! and credential shapes.

mod corpus;
mod gitleaks_corpus;
mod layers;
mod private_data;
mod properties;
mod rules;
mod shapes;
