"""Quiltboard's REST API from Python (docs/api.md): submit predictions, read the leaderboard, your
team's submissions and limits, and download a competition's data files.

Standard library only. A running Quiltboard serves it as a package, ``pip install
https://HOST/quiltboard-python.tar.gz`` (its build needs nothing from PyPI); or copy this file next
to your notebook. pandas is optional: submit() takes a DataFrame as well as a file (its index too,
when it is named ``id``), and every list this client returns is a list of flat dicts with
snake_case keys and times as datetimes, so pandas.DataFrame(rows) makes a table of it.

    from quiltboard import Client
    client = Client("https://quiltboard.example.org/competitions/household-power-spikes", token="qb_...")
    answer = client.submit("predictions.csv", description="gradient boosting, 200 trees")
    print(answer)    # 0.71875  public score, checked against the holdout (nothing spent) · budget 20 of 20

Submitting the same file again (re-running a notebook cell) spends nothing: the file's SHA-256 is
the request's Idempotency-Key, so the server answers the first submission again. (After the close,
late submissions are scored exactly and count against the daily cap each time: the server does not
replay them.)

A request the server refuses for a moment, with a Retry-After of at most ``max_wait`` seconds (30
by default), is sent again after that wait, at most 3 times: a submission after a 429 (the account's
uploads in progress; every 429 comes before anything is read or written), any other request after a
429 or a 503 (a busy server). A submission is not sent again after a 503: one that lost its database
connection as it was written may have been recorded, and a late one (after the close) would be
recorded twice. A longer wait raises at once, with ``retry_after`` set: the daily cap's lasts until
midnight UTC (in its last ``max_wait`` seconds, the client waits for the new day).
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import http.client
import io
import json
import math
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Dict, Iterable, List, Optional, Union

__all__ = ["Client", "Answer", "Limits", "Verification", "QuiltboardError", "KINDS", "score_text"]

#: The package's version: the app's, in the package it serves (scripts/python-package.ts).
__version__ = "0.0.0.dev0"

#: What each kind of answer means (docs/api.md, POST …/submissions).
KINDS = {
    "public": "public score, checked against the holdout (nothing spent)",
    "holdout": "checked on the holdout: one unit spent (a noisy holdout score)",
    "exhausted": "not checked: the team's holdout checks are used up",
    "limit": "not checked: the competition's limit of scored submissions is reached",
    "capped": "not checked: the competition's cap on holdout checks is reached",
    "late": "late submission: the exact holdout score, off the final standings",
}


def score_text(score: Optional[float], bound: Optional[float], decimals: int) -> str:
    """A score as every surface shows it (docs/clients.md, "How scores are shown"): "0.723 ± 0.010", "0.72345", or "—".

    ``decimals`` is what the API gives with the score (those its ± supports, else the competition's
    display precision); halves are rounded as the web's JavaScript rounds them (away from zero, on
    the exact binary value), so that every surface writes the same digits.
    """
    if score is None:
        return "—"
    return _fixed(score, decimals) + ("" if bound is None else f" ± {_fixed(bound, decimals)}")


def _fixed(x: float, decimals: int) -> str:
    """JavaScript's x.toFixed(decimals): the exact binary value rounded half away from zero."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))


class QuiltboardError(Exception):
    """The server refused a request (or could not be reached).

    ``message`` is the server's message, ``status`` the HTTP status (0 when the server was not
    reached), ``code`` its error code, ``details`` the problems it listed (a CSV's, each with its
    ``line``; a JSON body's, each with its ``path``), ``line`` the line of the first CSV problem, and
    ``retry_after`` the seconds the server asked to wait before trying again (None when it did not).
    """

    def __init__(self, message: str, status: int = 0, code: Optional[str] = None, details: Any = None, retry_after: Optional[float] = None):
        self.message = message
        self.status = status
        self.code = code
        self.details = details
        self.retry_after = retry_after
        problems = details if isinstance(details, list) else []
        lines = [p.get("line") for p in problems if isinstance(p, dict) and p.get("line")]
        self.line: Optional[int] = lines[0] if lines else None
        listed = [f"line {p['line']}: {p['message']}" for p in problems if isinstance(p, dict) and p.get("line") and p["message"] not in message]
        super().__init__("; ".join([message, *listed[:3]]) + (f" (and {len(listed) - 3} more)" if len(listed) > 3 else ""))


@dataclass(frozen=True)
class Answer:
    """One submission's answer, as the team sees it (scores in the metric's units).

    ``score`` is what the mechanism released (None when nothing was checked: the kinds exhausted,
    limit, capped); ``bound`` the half-width the platform proves for it (with probability at least
    95 %, every score the team is shown lies within its bound of its true score; None when nothing
    was checked, for a late answer, or where no proof covers the competition); ``public_score`` is
    the submission's exact public score, which a team always sees ("public score, not checked" when
    ``kind`` is not "public"). ``decimals`` is what its numbers are shown to (those its bound
    supports; str() and ``text`` show them so). ``replayed`` says the server answered an earlier
    submission of the same file again (nothing was spent).
    """

    id: str
    created_at: datetime
    kind: str
    score: Optional[float]
    bound: Optional[float]
    public_score: float
    budget_remaining: int
    budget_initial: int
    decimals: int
    replayed: bool = False
    description: Optional[str] = None
    filename: Optional[str] = None
    #: the submission's exact holdout score, once the competition has closed (None before)
    private_score: Optional[float] = None

    @property
    def text(self) -> str:
        """The answer as the pages show it: "0.723 ± 0.010" ("—" when nothing was checked)."""
        return score_text(self.score, self.bound, self.decimals)

    def __str__(self) -> str:
        unchecked = "" if self.kind == "public" else f" (public score {_fixed(self.public_score, self.decimals)}, not checked)"
        again = " · the same file again: its first answer" if self.replayed else ""
        return f"{self.text}  {KINDS.get(self.kind, self.kind)}{unchecked} · budget {self.budget_remaining} of {self.budget_initial}{again}"


@dataclass(frozen=True)
class Limits:
    """The team's daily submissions and its overfitting budget (GET …/team)."""

    daily_limit: int
    used_today: int
    remaining_today: int
    resets_at: datetime
    budget_remaining: int
    budget_initial: int

    def __str__(self) -> str:
        return (
            f"{self.remaining_today} of {self.daily_limit} submissions left today (resets {self.resets_at:%Y-%m-%d %H:%M} UTC); "
            f"budget {self.budget_remaining} of {self.budget_initial}"
        )


class Client:
    """A competitor's connection to one competition.

    ``url`` is the competition's page, e.g. https://quiltboard.example.org/competitions/my-slug (or
    the server's address alone, for competitions() only);
    ``token`` a personal API token (the account page, or POST /api/v1/tokens), by default the
    environment's QUILTBOARD_TOKEN. A refusal with a Retry-After of at most ``max_wait`` seconds is
    sent again after that wait (at most ``RETRIES`` times).
    """

    RETRIES = 3

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 120.0, max_wait: float = 30.0):
        parsed = urllib.parse.urlsplit(url)
        found = re.match(r"^(.*?)/competitions/([^/]+)/?$", parsed.path)
        if not parsed.scheme or not (found or parsed.path in ("", "/")):
            raise ValueError(f"{url!r} is not a competition's address: expected https://host/competitions/SLUG")
        self.base = urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, found.group(1) if found else "", "", ""))
        self.slug: Optional[str] = urllib.parse.unquote(found.group(2)) if found else None
        self.token = token if token is not None else os.environ.get("QUILTBOARD_TOKEN")
        self.timeout = timeout
        self.max_wait = max_wait

    def submit(self, path_or_dataframe: Union[str, "os.PathLike[str]", Any], description: Optional[str] = None) -> Answer:
        """Scores a predictions file (id,prediction): a path, or a pandas DataFrame (written without its index).

        The file's SHA-256 is the Idempotency-Key: the same file again returns its first answer and
        spends nothing (before the close; a late submission is recorded each time). Raises QuiltboardError with the server's message (and the line of the first
        problem in the file) when it is refused.
        """
        if hasattr(path_or_dataframe, "to_csv"):
            frame = path_or_dataframe
            # A frame indexed by id (df.set_index("id")) sends its index as the id column.
            if getattr(getattr(frame, "index", None), "name", None) == "id" and "id" not in list(getattr(frame, "columns", [])):
                frame = frame.reset_index()
            body = frame.to_csv(index=False).encode("utf-8")
            filename = "dataframe.csv"
        else:
            with open(path_or_dataframe, "rb") as file:
                body = file.read()
            filename = os.path.basename(os.fspath(path_or_dataframe))
        query = {"filename": filename, **({"description": description} if description else {})}
        headers = {"content-type": "text/csv", "idempotency-key": hashlib.sha256(body).hexdigest()}
        answer, response = self._request("POST", f"submissions?{urllib.parse.urlencode(query)}", body=body, headers=headers)
        return _answer(answer, replayed=response.headers.get("idempotent-replayed") == "true")

    def submissions(self) -> List[Answer]:
        """The team's submissions, newest first (late ones before the rest), each with its answer, note and file name."""
        data, _ = self._request("GET", "submissions")
        return [_answer(s) for s in data["submissions"]]

    def competitions(self, search: Optional[str] = None, status: Optional[str] = None, mine: bool = False, page: int = 1) -> List[Dict[str, Any]]:
        """The competitions the token's account can see, one flat dict each (slug, title, status, metric, starts_at, ends_at, closed_at, teams).

        ``search`` keeps those whose title has words starting with each of its words; ``status`` is
        "open" (taking entries now), "upcoming" or "closed"; ``mine=True`` keeps those you are on a
        team of or organize (it needs a token). Open ones come first, then drafts, then closed ones;
        500 a page, ``page`` counting from 1.
        """
        if status not in (None, "open", "upcoming", "closed"):
            raise ValueError(f"status must be 'open', 'upcoming' or 'closed' (not {status!r})")
        query: Dict[str, Any] = {"page": page}
        if search:
            query["q"] = search
        if status:
            query["status"] = status
        if mine:
            query["mine"] = "true"
        data, _ = self._request("GET", f"/api/v1/competitions?{urllib.parse.urlencode(query)}")
        return _rows(data["competitions"])

    def files(self) -> List[Dict[str, Any]]:
        """The competition's data files: id, filename, content_type, size, sha256, created_at."""
        data, _ = self._request("GET", "attachments")
        return _rows(data["attachments"])

    def leaderboard(self) -> List[Dict[str, Any]]:
        """The whole live leaderboard, one flat dict per team (rank, team, team_id, score, kind, bound, uncertainty, decimals, …).

        score_text(row["score"], row["bound"], row["decimals"]) writes a row's score as the pages do.

        Follows the API's pages. Once the competition has closed, the final standings instead.
        """
        if self._request("GET", "")[0]["status"] == "closed":
            return _rows(self._request("GET", "final")[0]["entries"])
        # A board that moves between two pages can repeat or skip a team: read it again (at most three times).
        for _ in range(3):
            rows: List[Dict[str, Any]] = []
            page: Optional[str] = f"/api/v1/competitions/{urllib.parse.quote(self._competition())}/leaderboard?pageSize=1000"
            total = None
            while page:
                data, _ = self._request("GET", page)
                total = data["total"] if total is None else total
                for e in _rows(data["entries"]):
                    budget = e.pop("budget")
                    rows.append({**e, "budget_remaining": budget["remaining"], "budget_initial": budget["initial"]})
                page = data["next"] if data["total"] == total else None
            if len(rows) == total and len({r["team_id"] for r in rows}) == total:
                return rows
        raise QuiltboardError("the leaderboard kept changing while it was read: try again")

    def leaderboard_csv(self, path: Optional[str] = None) -> str:
        """The whole leaderboard as the API's CSV (the final standings' once closed); written to ``path`` too when given.

        pandas.read_csv(io.StringIO(client.leaderboard_csv())) makes a table of it.
        """
        closed = self._request("GET", "")[0]["status"] == "closed"
        text = self._bytes("final?format=csv" if closed else "leaderboard?format=csv").decode("utf-8")
        if path is not None:
            with open(path, "w", encoding="utf-8", newline="") as file:
                file.write(text)
        return text

    def select_final(self, ids: Iterable[Union[str, "Answer"]]) -> List[str]:
        """Makes these submissions (at most 2: Answers, ids, or ids' first characters as printed) the team's final selection; its ids.

        The submissions selected before and not named are unselected first. The server refuses more than 2 (409).
        """
        mine, _ = self._request("GET", "submissions")
        wanted = []
        for given in ids:
            prefix = (given.id if isinstance(given, Answer) else str(given)).lower()
            matching = [s["id"] for s in mine["submissions"] if s["id"].startswith(prefix)]
            if len(matching) != 1:
                raise QuiltboardError(f"{prefix} is the start of {len(matching)} of your submissions' ids: give more of it" if matching else f"none of your team's submissions has an id starting with {prefix}")
            wanted.append(matching[0])
        # What the team selected itself (without a selection, the final standings take its board submission).
        selected = [s["id"] for s in mine["submissions"] if s.get("selected")]
        for id in selected:
            if id not in wanted:
                self._request("PUT", f"submissions/{id}/final", body=b'{"selected":false}', headers={"content-type": "application/json"})
        for id in wanted:
            if id not in selected:
                self._request("PUT", f"submissions/{id}/final", body=b'{"selected":true}', headers={"content-type": "application/json"})
        return self._request("GET", "submissions")[0]["final"]

    def limits(self) -> Limits:
        """Submissions left today, when the count resets, and the team's budget."""
        team, _ = self._request("GET", "team")
        l, b = team["limits"], team["budget"]
        return Limits(l["dailyLimit"], l["usedToday"], l["remainingToday"], _when(l["resetsAt"]), b["remaining"], b["initial"])

    def download(self, directory: Optional[str] = None, file: Optional[str] = None, force: bool = False) -> List[str]:
        """Downloads the competition's data files (or the one called ``file``) into ``directory`` (default ./SLUG); their paths.

        A file already there with the SHA-256 the server lists is not fetched again (``force=True``
        fetches it anyway). Each file is written to NAME.part (the ETag it came with in
        NAME.part.etag) and renamed into place only once the whole file has the listed SHA-256. A
        download cut off keeps its part and raises: calling download() again asks only for the rest
        (Range with If-Range, so a file changed meanwhile comes whole again). A whole file with
        another SHA-256 deletes the part and raises.
        """
        target = directory if directory is not None else self._competition()
        attachments = self.files()
        if file is not None:
            attachments = [a for a in attachments if a["filename"] == file]
            if not attachments:
                raise QuiltboardError(f"no data file called {file}; files() lists them")
        os.makedirs(target, exist_ok=True)
        paths = []
        for attachment in attachments:
            path = os.path.join(target, os.path.basename(attachment["filename"]))
            paths.append(path)
            if not force and os.path.isfile(path) and _sha256_of(path) == attachment["sha256"]:
                continue
            self._download_resumable(f"attachments/{attachment['id']}", path, attachment["size"], attachment["sha256"])
        return paths

    def _download_resumable(self, source: str, path: str, size: int, sha256: str) -> None:
        """Fetches ``source`` into ``path`` through ``path``.part, resuming the part an earlier call left (docs/clients.md)."""
        part, tag_file = path + ".part", path + ".part.etag"
        name = os.path.basename(path)
        offset, etag = 0, None
        if os.path.isfile(part) and os.path.isfile(tag_file):
            with open(tag_file, encoding="utf-8") as tags:
                etag = tags.read().strip() or None
            offset = os.path.getsize(part)
        if etag is None or not 0 < offset <= size:
            offset, etag = 0, None
            _remove(tag_file)
        digest = hashlib.sha256()
        if offset:
            with open(part, "rb") as held:
                for chunk in iter(lambda: held.read(1 << 20), b""):
                    digest.update(chunk)
        received = 0
        # A part already whole (a call stopped before its rename) needs only its check.
        if offset < size or size == 0:
            headers = {"range": f"bytes={offset}-", "if-range": etag} if etag else {}
            _, response = self._request("GET", source, headers=headers, raw=True)
            with response:
                if response.status == 206:
                    served = response.headers.get("content-range", "")
                    if not served.startswith(f"bytes {offset}-"):
                        raise QuiltboardError(f"{name}: the server sent the bytes {served!r} where the download resumes at {offset}; {part} is kept: call download() again")
                else:
                    # The whole file: the first request, or the file changed since the part was fetched (If-Range).
                    offset, digest = 0, hashlib.sha256()
                    if response.headers.get("etag"):
                        with open(tag_file, "w", encoding="utf-8") as tags:
                            tags.write(response.headers["etag"] + "\n")
                    else:
                        _remove(tag_file)
                cut_off: Optional[BaseException] = None
                with open(part, "ab" if offset else "wb") as out:
                    while True:
                        try:
                            chunk = response.read(1 << 20)
                        except (OSError, http.client.HTTPException) as error:
                            cut_off = error
                            break
                        if not chunk:
                            break
                        out.write(chunk)
                        digest.update(chunk)
                        received += len(chunk)
            # A connection cut short may end the body early without an error: the length tells.
            if cut_off is not None or offset + received < size:
                why = f" ({type(cut_off).__name__})" if cut_off is not None else ""
                raise QuiltboardError(f"{name}: the download was cut off after {offset + received:,} of {size:,} bytes{why}; {part} keeps them: call download() again to resume")
        if digest.hexdigest() != sha256:
            _remove(part)
            _remove(tag_file)
            raise QuiltboardError(
                f"{name}: the whole file ({offset + received:,} bytes) has another SHA-256 than the server lists, so the partial download {part} was deleted: call download() again to download it afresh"
            )
        os.replace(part, path)
        _remove(tag_file)

    def verify(self) -> "Verification":
        """Checks a revealed competition (docs/mechanism.md §2.10) with this file's own implementation of the mechanism.

        The solution's bytes and the secret with its settings must hash to the commitment published
        when the competition opened, and every released answer must come out again when Algorithm 1
        is replayed from the secret on the transcript's values (the HMAC-keyed seedrandom streams, the
        discrete Laplace noise on the grid, the threshold check, the rounding). A changed label changes
        the solution's hash; a changed answer fails its replay.
        """
        reveal, _ = self._request("GET", "reveal")
        solution = self._bytes(reveal["solution"]["url"])
        transcript = self._bytes(reveal["transcript"]["url"]).decode("utf-8")
        secret = bytes.fromhex(reveal["secret"])
        replay = _Replay(reveal["mechanism"], secret)
        for row in csv.DictReader(io.StringIO(transcript, newline="")):
            replay.add(row)
        return Verification(
            solution=hashlib.sha256(solution).hexdigest() == reveal["commitment"]["solution"],
            secret=hashlib.sha256(secret + reveal["settings"].encode("utf-8")).hexdigest() == reveal["commitment"]["secret"],
            queries=replay.queries,
            differences=replay.differences,
        )

    def _competition(self) -> str:
        if self.slug is None:
            raise ValueError("this client was made with the server's address: Client('https://host/competitions/SLUG') for a competition's requests")
        return self.slug

    def _bytes(self, path: str) -> bytes:
        """A file of the API, whole."""
        _, response = self._request("GET", path, raw=True)
        with response:
            return response.read()

    def _request(self, method: str, path: str, body: Optional[bytes] = None, headers: Optional[Dict[str, str]] = None, raw: bool = False):
        """A request to the competition's API (`path` relative to it, or absolute from /api); its JSON and the response.

        Sent again after the server's Retry-After when it refuses for a moment (a 429; a 503 too
        unless it is a POST) and asks to wait at most ``max_wait`` seconds.
        """
        again = (429,) if method == "POST" else (429, 503)
        retried = 0
        while True:
            try:
                return self._send(method, path, body, headers, raw)
            except QuiltboardError as refused:
                wait = refused.retry_after
                if refused.status not in again or wait is None or not 0 <= wait <= self.max_wait or retried == self.RETRIES:
                    raise
                retried += 1
                time.sleep(max(wait, 1.0))

    def _send(self, method: str, path: str, body: Optional[bytes], headers: Optional[Dict[str, str]], raw: bool):
        url = self.base + (path if path.startswith("/api/") else f"/api/v1/competitions/{urllib.parse.quote(self._competition())}" + (f"/{path}" if path else ""))
        request = urllib.request.Request(url, data=body, method=method, headers={"accept": "application/json", **(headers or {})})
        if self.token:
            # Not sent on to a redirect: the S3 store's signed URL carries its own authorization.
            request.add_unredirected_header("Authorization", f"Bearer {self.token}")
        try:
            response = urllib.request.urlopen(request, timeout=self.timeout)
            if raw:
                return None, response
            with response:
                return json.loads(response.read().decode("utf-8")), response
        except urllib.error.HTTPError as error:
            try:
                raise _refusal(error) from None
            finally:
                error.close()
        except urllib.error.URLError as error:
            raise QuiltboardError(f"cannot reach {self.base} ({error.reason})") from None
        except TimeoutError:
            raise QuiltboardError(f"{self.base} did not answer within {self.timeout:g} s") from None


@dataclass(frozen=True)
class Verification:
    """What verify() found: whether the solution and the secret hash to the commitment, and the answers that replay differently."""

    solution: bool
    secret: bool
    queries: int
    differences: List[str]

    @property
    def verified(self) -> bool:
        return self.solution and self.secret and not self.differences

    def __str__(self) -> str:
        lines = [
            f"solution: {'matches the commitment' if self.solution else 'DIFFERS from the commitment'}",
            f"secret and settings: {'match the commitment' if self.secret else 'DIFFER from the commitment'}",
            f"answers: {self.queries} replayed, {len(self.differences)} differ",
            *(f"  {d}" for d in self.differences[:10]),
        ]
        return "\n".join(lines + ["verified: every answer follows the published mechanism" if self.verified else "NOT verified"])


# The mechanism, written again from docs/mechanism.md §2.2–§2.3 so that a verification does not take the
# server's code on trust: Algorithm 1 with discrete Laplace noise on the grid, each draw from its own
# seedrandom stream (David Bau's ARC4-based generator) keyed by HMAC-SHA256(secret, [team, index, purpose]).


class _Arc4:
    """seedrandom's ARC4 keystream: the key is the seed's characters; the first 256 bytes are dropped."""

    def __init__(self, key: List[int]):
        s = list(range(256))
        j = 0
        for i in range(256):
            j = (j + key[i % len(key)] + s[i]) & 255
            s[i], s[j] = s[j], s[i]
        self.s, self.i, self.j = s, 0, 0
        self.g(256)

    def g(self, count: int) -> int:
        r, s, i, j = 0, self.s, self.i, self.j
        for _ in range(count):
            i = (i + 1) & 255
            t = s[i]
            j = (j + t) & 255
            s[i], s[j] = s[j], t
            r = r * 256 + s[(s[i] + s[j]) & 255]
        self.i, self.j = i, j
        return r


def _seedrandom(seed: str):
    """seedrandom(seed)(): doubles in [0, 1) with 52 random bits, exactly as the JavaScript library draws them."""
    arc4 = _Arc4([ord(c) & 255 for c in seed])

    def draw() -> float:
        n, d, x = float(arc4.g(6)), 2.0**48, 0
        while n < 2.0**52:
            n = (n + x) * 256
            d *= 256
            x = arc4.g(1)
        while n >= 2.0**53:
            n /= 2
            d /= 2
            x >>= 1
        return (n + x) / d

    return draw


def _js_round(x: float) -> float:
    """JavaScript's Math.round: halves up, whatever the sign."""
    floor = math.floor(x)
    return float(floor + 1 if x - floor >= 0.5 else floor)


class _Replay:
    """Replays each team's stream of answers (lib/mechanism/thresholdout.ts, lib/mechanism/replay.ts)."""

    def __init__(self, mechanism: Dict[str, Any], secret: bytes):
        self.sigma, self.threshold = float(mechanism["sigma"]), float(mechanism["threshold"])
        self.decimals, self.max_queries = int(mechanism["answerDecimals"]), int(mechanism["maxQueries"])
        self.grid = 2.0 ** math.floor(math.log2(float(mechanism["sensitivity"]) / 1024))
        self.secret = secret
        self.stream: Optional[str] = None
        self.noisy_threshold = 0.0
        self.next = 1
        self.queries = 0
        self.differences: List[str] = []

    def _draw(self, team: str, index: int, purpose: str):
        message = json.dumps([team, index, purpose], separators=(",", ":")).encode("utf-8")
        return _seedrandom(hmac.new(self.secret, message, hashlib.sha256).hexdigest())

    def _laplace(self, scale: float, rng) -> float:
        rate = self.grid / scale
        first = math.floor(-math.log(1 - rng()) / rate)
        second = math.floor(-math.log(1 - rng()) / rate)
        return (first - second) * self.grid

    def _snap(self, value: float) -> float:
        return _js_round(value / self.grid) * self.grid

    def _new_threshold(self, team: str, index: int) -> float:
        return self._snap(self.threshold) + self._laplace(self.sigma, self._draw(team, index, "threshold"))

    def add(self, row: Dict[str, str]) -> None:
        team, index = row["stream"], int(row["query_index"])
        if team != self.stream:
            self.stream, self.next = team, 1
            self.noisy_threshold = self._new_threshold(team, 0)
        self.queries += 1
        problems = []
        if index != self.next:
            problems.append(f"query index {index}, expected {self.next}")
        self.next = index + 1
        kind, value, budget = self._step(row, team, index)
        stored_answer = None if row["answer"] == "" else float(row["answer"])
        same_kind = row["kind"] == kind or (row["kind"] == "capped" and kind == "exhausted")
        if not same_kind or stored_answer != value or int(row["budget_after"]) != budget:
            problems.append(f"stored {row['kind']} {stored_answer} (budget {row['budget_after']}), replay gives {kind} {value} (budget {budget})")
        self.differences.extend(f"{row['submission_id']}: {p}" for p in problems)

    def _step(self, row: Dict[str, str], team: str, index: int):
        budget = int(row["budget_before"])
        absorbed = int(row["position"]) - index
        if index + absorbed > self.max_queries:
            return "limit", None, budget
        if budget < 1:
            return "exhausted", None, budget
        holdout, public = self._snap(float(row["holdout_value"])), self._snap(float(row["public_value"]))
        gamma = self._laplace(2 * self.sigma, self._draw(team, index, "gamma"))
        if abs(holdout - public) + gamma > self.noisy_threshold:
            noise = self._laplace(4 * self.sigma, self._draw(team, index, "answer"))
            answer = min(1.0, max(0.0, holdout + noise))
            scale = 10.0**self.decimals
            self.noisy_threshold = self._new_threshold(team, index)
            return "holdout", _js_round(answer * scale) / scale, budget - 1
        return "public", min(1.0, max(0.0, public)), budget


def _snake(name: str) -> str:
    """The API's camelCase key in snake_case: lastSubmissionAt → last_submission_at."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _when(text: str) -> datetime:
    """An ISO 8601 time of the API (UTC, "Z") as an aware datetime."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _rows(value: Any) -> Any:
    """The API's JSON with snake_case keys and its times (keys ending in At) as datetimes."""
    if isinstance(value, list):
        return [_rows(v) for v in value]
    if isinstance(value, dict):
        return {_snake(k): _when(v) if k.endswith("At") and isinstance(v, str) else _rows(v) for k, v in value.items()}
    return value


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def _sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _answer(data: Dict[str, Any], replayed: bool = False) -> Answer:
    answer, budget = data["answer"], data["budget"]
    return Answer(
        id=data["id"],
        created_at=_when(data["createdAt"]),
        kind=answer["kind"],
        score=answer["score"],
        bound=answer["bound"],
        public_score=answer["publicScore"],
        budget_remaining=budget["remaining"],
        budget_initial=budget["initial"],
        decimals=answer["decimals"],
        replayed=replayed,
        description=data.get("description"),
        filename=data.get("filename"),
        private_score=data.get("privateScore"),
    )


def _refusal(error: urllib.error.HTTPError) -> QuiltboardError:
    try:
        body = json.loads(error.read().decode("utf-8")).get("error", {})
    except (ValueError, AttributeError):
        body = {}
    if error.code == 401:
        return QuiltboardError("the server refused the token (401): create one on your account page and pass it as token=, or set QUILTBOARD_TOKEN", 401, body.get("code"))
    try:
        retry_after: Optional[float] = float(error.headers.get("retry-after", ""))
    except ValueError:
        retry_after = None  # absent, or a date (the server sends seconds)
    if retry_after is not None and not math.isfinite(retry_after):
        retry_after = None
    return QuiltboardError(body.get("message") or f"the server answered {error.code}", error.code, body.get("code"), body.get("details"), retry_after)
