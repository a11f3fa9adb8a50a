//! The Numberlink human-strategy engine (in progress).
use super::{Links, Numberlink};
use crate::explain::{Explain, ExplainOptions, Explanation, Grade};
impl Explain for Numberlink {
    fn explain(&self, _solution: &Links, _opts: ExplainOptions) -> Explanation {
        Explanation {
            steps: vec![],
            solved: false,
            stuck: None,
            grade: Grade {
                level: "?".into(),
                rating: 0.0,
                hardest: "none".into(),
                techniques: vec![],
            },
        }
    }
}
