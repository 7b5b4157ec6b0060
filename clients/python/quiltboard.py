"""Quiltboard's REST API from Python (docs/api.md): submit predictions, read the leaderboard, your
team's submissions and limits, and download a competition's data files.

Standard library only: copy this file next to your notebook, or put clients/python on sys.path.
pandas is optional: submit() takes a DataFrame as well as a file, and every list this client returns
is a list of flat dicts, so pandas.DataFrame(rows) makes a table of it.

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

import hashlib
import json
import math
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Union

__all__ = ["Client", "Answer", "Limits", "QuiltboardError", "KINDS"]

#: What each kind of answer means (docs/api.md, POST …/submissions).
KINDS = {
    "public": "public score, checked against the holdout (nothing spent)",
    "holdout": "checked on the holdout: one unit spent (a noisy holdout score)",
    "exhausted": "not checked: the team's holdout checks are used up",
    "limit": "not checked: the competition's limit of scored submissions is reached",
    "capped": "not checked: the competition's cap on holdout checks is reached",
    "late": "late submission: the exact holdout score, off the final standings",
}


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
    ``kind`` is not "public"). ``replayed`` says the server answered an earlier submission of the
    same file again (nothing was spent).
    """

    id: str
    created_at: str
    kind: str
    score: Optional[float]
    bound: Optional[float]
    public_score: float
    budget_remaining: int
    budget_initial: int
    replayed: bool = False
    description: Optional[str] = None
    filename: Optional[str] = None

    def __str__(self) -> str:
        score = "—" if self.score is None else f"{self.score:g}" + ("" if self.bound is None else f" ± {self.bound:.2g}")
        unchecked = "" if self.kind == "public" else f" (public score {self.public_score:g}, not checked)"
        again = " · the same file again: its first answer" if self.replayed else ""
        return f"{score}  {KINDS.get(self.kind, self.kind)}{unchecked} · budget {self.budget_remaining} of {self.budget_initial}{again}"


@dataclass(frozen=True)
class Limits:
    """The team's daily submissions and its overfitting budget (GET …/team)."""

    daily_limit: int
    used_today: int
    remaining_today: int
    resets_at: str
    budget_remaining: int
    budget_initial: int

    def __str__(self) -> str:
        return (
            f"{self.remaining_today} of {self.daily_limit} submissions left today (resets {self.resets_at[:16].replace('T', ' ')} UTC); "
            f"budget {self.budget_remaining} of {self.budget_initial}"
        )


class Client:
    """A competitor's connection to one competition.

    ``url`` is the competition's page, e.g. https://quiltboard.example.org/competitions/my-slug;
    ``token`` a personal API token (the account page, or POST /api/v1/tokens), by default the
    environment's QUILTBOARD_TOKEN. A refusal with a Retry-After of at most ``max_wait`` seconds is
    sent again after that wait (at most ``RETRIES`` times).
    """

    RETRIES = 3

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 120.0, max_wait: float = 30.0):
        parsed = urllib.parse.urlsplit(url)
        found = re.match(r"^(.*?)/competitions/([^/]+)/?$", parsed.path)
        if not parsed.scheme or not found:
            raise ValueError(f"{url!r} is not a competition's address: expected https://host/competitions/SLUG")
        self.base = urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, found.group(1), "", ""))
        self.slug = urllib.parse.unquote(found.group(2))
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
            body = path_or_dataframe.to_csv(index=False).encode("utf-8")
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

    def leaderboard(self) -> List[Dict[str, Any]]:
        """The whole live leaderboard, one flat dict per team (rank, team, score, kind, bound, uncertainty, …).

        Follows the API's pages. Once the competition has closed, the final standings instead.
        """
        if self._request("GET", "")[0]["status"] == "closed":
            return self._request("GET", "final")[0]["entries"]
        # A board that moves between two pages can repeat or skip a team: read it again (at most three times).
        for _ in range(3):
            rows: List[Dict[str, Any]] = []
            page: Optional[str] = f"/api/v1/competitions/{urllib.parse.quote(self.slug)}/leaderboard?pageSize=1000"
            total = None
            while page:
                data, _ = self._request("GET", page)
                total = data["total"] if total is None else total
                for e in data["entries"]:
                    budget = e.pop("budget")
                    rows.append({**e, "budget_remaining": budget["remaining"], "budget_initial": budget["initial"]})
                page = data["next"] if data["total"] == total else None
            if len(rows) == total and len({r["teamId"] for r in rows}) == total:
                return rows
        raise QuiltboardError("the leaderboard kept changing while it was read: try again")

    def limits(self) -> Limits:
        """Submissions left today, when the count resets, and the team's budget."""
        team, _ = self._request("GET", "team")
        l, b = team["limits"], team["budget"]
        return Limits(l["dailyLimit"], l["usedToday"], l["remainingToday"], l["resetsAt"], b["remaining"], b["initial"])

    def download(self, directory: Optional[str] = None) -> List[str]:
        """Downloads the competition's data files into ``directory`` (default ./SLUG); their paths."""
        target = directory if directory is not None else self.slug
        listing, _ = self._request("GET", "attachments")
        os.makedirs(target, exist_ok=True)
        paths = []
        for attachment in listing["attachments"]:
            path = os.path.join(target, os.path.basename(attachment["filename"]))
            partial = path + ".part"
            _, response = self._request("GET", f"attachments/{attachment['id']}", raw=True)
            with response, open(partial, "wb") as file:
                received = 0
                while True:
                    chunk = response.read(1 << 20)
                    if not chunk:
                        break
                    file.write(chunk)
                    received += len(chunk)
            # A connection cut short ends the body early without an error: the file is whole only at its length.
            if received != attachment["size"]:
                os.remove(partial)
                raise QuiltboardError(f"the download of {attachment['filename']} was cut short ({received} of {attachment['size']} bytes): try again")
            os.replace(partial, path)
            paths.append(path)
        return paths

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
        url = self.base + (path if path.startswith("/api/") else f"/api/v1/competitions/{urllib.parse.quote(self.slug)}" + (f"/{path}" if path else ""))
        request = urllib.request.Request(url, data=body, method=method, headers={"accept": "application/json", **(headers or {})})
        if self.token:
            request.add_header("authorization", f"Bearer {self.token}")
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


def _answer(data: Dict[str, Any], replayed: bool = False) -> Answer:
    answer, budget = data["answer"], data["budget"]
    return Answer(
        id=data["id"],
        created_at=data["createdAt"],
        kind=answer["kind"],
        score=answer["score"],
        bound=answer["bound"],
        public_score=answer["publicScore"],
        budget_remaining=budget["remaining"],
        budget_initial=budget["initial"],
        replayed=replayed,
        description=data.get("description"),
        filename=data.get("filename"),
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
