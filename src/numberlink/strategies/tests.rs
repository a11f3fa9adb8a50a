//! Tests of the Numberlink strategy engine on small boards.

use super::*;
