"""gridsat: read, check, solve, count, explain and generate grid logic puzzles (Sudoku, Takuzu,
Tectonic, Numberlink, Shisen-sho) with SAT.

Every long call takes ``timeout=`` (seconds) and can be interrupted with Ctrl-C; the solver runs
with the GIL released, so a thread pool of checks uses every core."""

from typing import Any, Dict, List, Optional, Tuple, Union

__version__: str

Rows = List[List[int]]

class GridsatError(Exception):
    """Every error gridsat raises."""

class InputError(GridsatError):
    """Bad input; the message names file, line and column."""

    file: str
    line: int
    col: int

class UsageError(GridsatError):
    """An option or argument gridsat cannot use."""

class SolverError(GridsatError):
    """The solver failed."""

class Verdict:
    """What check, solve, count, forced and decode found: the command line's record."""

    @property
    def status(self) -> str:
        """unique, multiple, none, solved or unknown."""
    @property
    def solution(self) -> Optional[Rows]: ...
    @property
    def second_solution(self) -> Optional[Rows]: ...
    @property
    def differing_cells(self) -> Optional[List[str]]: ...
    @property
    def conflicting_givens(self) -> Optional[List[str]]: ...
    @property
    def conflicts_minimal(self) -> Optional[bool]: ...
    @property
    def forced_cells(self) -> Optional[List[str]]: ...
    @property
    def count(self) -> Optional[int]: ...
    @property
    def count_complete(self) -> Optional[bool]: ...
    @property
    def time_ms(self) -> float: ...
    @property
    def timeout_s(self) -> Optional[float]: ...
    @property
    def open_reason(self) -> Optional[str]: ...
    def to_json(self) -> str:
        """The command line's --json line for this puzzle."""
    def to_dict(self) -> Dict[str, Any]: ...
    def svg(self) -> str:
        """The solution, two solutions with the differing cells shaded, or the puzzle with its
        conflicting givens shaded, as an SVG document."""
    def png(self) -> bytes: ...
    def _repr_svg_(self) -> str: ...

class Explanation:
    """What explain, hint and grade found: the command line's record."""

    @property
    def status(self) -> str:
        """explained, stuck, hint, solved, graded, multiple, none or unknown."""
    @property
    def steps(self) -> List[Dict[str, Any]]:
        """Each step: technique, rating, pattern, placements, eliminations, links, text."""
    @property
    def grade(self) -> Optional[Dict[str, Any]]: ...
    @property
    def solution(self) -> Optional[Rows]: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def pictures(self) -> List[str]:
        """SVG documents: each step on the position before it, then the end."""
    def svg(self, step: int = 0) -> str: ...
    def png(self, step: int = 0) -> bytes: ...
    def _repr_svg_(self) -> str: ...

class Puzzle:
    """A puzzle of any kind."""

    @property
    def kind(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def index(self) -> int: ...
    def check(
        self, *, forced: bool = False, givens: bool = True, timeout: Optional[float] = None
    ) -> Verdict: ...
    def solve(self, *, unique: bool = True, timeout: Optional[float] = None) -> Verdict: ...
    def count(self, limit: int = 2, *, timeout: Optional[float] = None) -> Verdict: ...
    def forced(self, *, timeout: Optional[float] = None) -> Verdict: ...
    def hint(self, *, fallback: bool = False, timeout: Optional[float] = None) -> Explanation: ...
    def explain(
        self, *, fallback: bool = False, timeout: Optional[float] = None
    ) -> Explanation: ...
    def grade(self, *, timeout: Optional[float] = None) -> Explanation: ...
    def to_dimacs(self, *, folded: bool = False) -> Tuple[str, Dict[str, int]]:
        """The CNF as gridsat dimacs writes it, and the variable map (name -> number)."""
    def decode(self, model: Union[str, List[int]], *, folded: bool = False) -> Verdict: ...
    def svg(self, *, solution: bool = False) -> str: ...
    def png(self, *, solution: bool = False) -> bytes: ...
    def _repr_svg_(self) -> str: ...

class Generated:
    """A generated puzzle with its solution."""

    @property
    def puzzle(self) -> Puzzle: ...
    @property
    def seed(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def givens(self) -> int: ...
    @property
    def grade(self) -> Optional[Dict[str, Any]]: ...
    @property
    def solution(self) -> Optional[Rows]: ...
    def to_json(self) -> str:
        """The command line's generate --json --with-solution line."""
    def _repr_svg_(self) -> str: ...

def read(
    text: str,
    kind: Optional[str] = None,
    *,
    file: str = "<string>",
    layout: Optional[str] = None,
    box: Optional[str] = None,
    rules: Optional[str] = None,
    loops: Optional[str] = None,
    distinct_lines: Optional[bool] = None,
    odd_lines: Optional[str] = None,
    regions: Optional[str] = None,
    distinct_encoding: Optional[str] = None,
    no_outline: bool = False,
    gravity: bool = False,
    chinese: bool = False,
) -> List[Puzzle]:
    """Every puzzle in text, its kind detected as on the command line (or named by kind)."""

def generate(
    kind: str,
    size: Union[int, Tuple[int, int], str, None] = None,
    *,
    difficulty: Optional[str] = None,
    seed: int = 1,
    count: int = 1,
    width: Optional[int] = None,
    height: Optional[int] = None,
    box: Optional[str] = None,
    symmetry: Optional[str] = None,
    clues: Union[int, Tuple[int, int], str, None] = None,
    minimal: bool = False,
    attempts: Optional[int] = None,
    layout: Optional[str] = None,
    max_piece: Optional[int] = None,
    rules: Optional[str] = None,
    unique: bool = False,
    distinct_lines: Optional[bool] = None,
    odd_lines: Optional[str] = None,
    regions: Optional[str] = None,
    no_outline: bool = False,
    gravity: bool = False,
    chinese: bool = False,
    timeout: Optional[float] = None,
) -> List[Generated]:
    """count puzzles of kind, puzzle i from seed + i, as gridsat generate makes them."""
