"""The Python client against a real Quiltboard server (run by test/e2e/python-client.test.ts).

The harness publishes a competition, makes a competitor's team and token, attaches a data file and
writes a predictions file, and passes them in the environment:
QUILTBOARD_TEST_URL (the competition's page), QUILTBOARD_TOKEN, QUILTBOARD_TEST_TEAM,
QUILTBOARD_TEST_PREDICTIONS (a file's path), QUILTBOARD_TEST_ATTACHMENT (a data file's name) and
QUILTBOARD_TEST_ATTACHMENT_TEXT (its content), QUILTBOARD_TEST_DAILY (the daily cap),
QUILTBOARD_TEST_TITLE (the competition's title, one word no other title has).
"""

import csv
import datetime
import hashlib
import http.client
import http.server
import io
import os
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from quiltboard import KINDS, Client, QuiltboardError  # noqa: E402

URL = os.environ["QUILTBOARD_TEST_URL"]
PREDICTIONS = os.environ["QUILTBOARD_TEST_PREDICTIONS"]


class FakeFrame:
    """What submit() asks of a pandas DataFrame: to_csv(index=False)."""

    def __init__(self, rows):
        self.rows = rows

    def to_csv(self, index=True):
        assert index is False
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["id", "prediction"])
        writer.writerows(self.rows)
        return out.getvalue()


class IndexedFrame(FakeFrame):
    """A DataFrame indexed by id (df.set_index("id")): to_csv(index=False) would drop the ids, reset_index() brings them back."""

    class Index:
        name = "id"

    index = Index()
    columns = ["prediction"]

    def to_csv(self, index=True):
        raise AssertionError("an id index must be reset first")

    def reset_index(self):
        return FakeFrame(self.rows)


def flipped_rows():
    """The predictions file's rows with the first prediction changed: another file than the one on disk."""
    with open(PREDICTIONS, newline="") as file:
        rows = list(csv.reader(file))[1:]
    rows[0][1] = "spike" if rows[0][1] == "none" else "none"
    return rows


UTC = datetime.timezone.utc


class CuttingProxy:
    """An HTTP proxy on 127.0.0.1 in front of the server that sends the first data-file download only
    up to ``cut`` bytes of its body and then closes the connection (its Content-Length promising
    more), and records each download's Range, If-Range and the status the server answered."""

    def __init__(self, cut):
        upstream = urllib.parse.urlsplit(URL)
        self.downloads = []
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
                connection.request("GET", self.path, headers={k: v for k, v in self.headers.items() if k.lower() != "host"})
                answer = connection.getresponse()
                body = answer.read()
                download = "/attachments/" in self.path and not self.path.endswith("/attachments")
                if download:
                    proxy.downloads.append((self.headers.get("range"), self.headers.get("if-range"), answer.status))
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.end_headers()
                if download and len(proxy.downloads) == 1:
                    body = body[:cut]  # and the connection closes, short of its Content-Length
                    self.close_connection = True
                self.wfile.write(body)
                connection.close()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{upstream.path}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.server.shutdown()
        self.server.server_close()


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.client = Client(URL)  # the token from QUILTBOARD_TOKEN

    def test_a_submission_answers_and_the_same_file_again_spends_nothing(self):
        first = self.client.submit(PREDICTIONS, description="from a notebook")
        self.assertIn(first.kind, KINDS)
        self.assertIsInstance(first.public_score, float)
        self.assertIn(KINDS[first.kind], str(first))
        self.assertEqual(first.created_at.tzinfo, UTC)
        again = self.client.submit(PREDICTIONS, description="from a notebook")
        self.assertTrue(again.replayed)
        self.assertEqual((again.id, again.kind, again.score, again.public_score), (first.id, first.kind, first.score, first.public_score))
        self.assertEqual(again.budget_remaining, first.budget_remaining)
        mine = {s.id: s for s in self.client.submissions()}
        self.assertEqual(mine[first.id].description, "from a notebook")
        self.assertEqual(mine[first.id].filename, os.path.basename(PREDICTIONS))
        self.assertEqual(len([s for s in mine.values() if s.id == first.id]), 1)

    def test_a_dataframe_is_submitted_as_its_csv_with_an_id_index_as_the_id_column(self):
        answer = self.client.submit(FakeFrame(flipped_rows()))
        self.assertEqual(next(s for s in self.client.submissions() if s.id == answer.id).filename, "dataframe.csv")
        # The same rows indexed by id make the same file: its answer again.
        indexed = self.client.submit(IndexedFrame(flipped_rows()))
        self.assertEqual((indexed.id, indexed.replayed), (answer.id, True))

    @unittest.skipUnless(__import__("importlib").util.find_spec("pandas"), "pandas is not installed (it is optional)")
    def test_a_pandas_dataframe(self):
        import pandas

        frame = pandas.read_csv(PREDICTIONS)
        frame.loc[1, "prediction"] = "spike" if frame.loc[1, "prediction"] == "none" else "none"
        self.assertIn(self.client.submit(frame).kind, KINDS)

    def test_a_refused_file_raises_with_the_server_message_and_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as file:
            file.write("id,prediction\nnot-an-id,none\n")
        self.addCleanup(os.remove, file.name)
        with self.assertRaises(QuiltboardError) as refused:
            self.client.submit(file.name)
        self.assertEqual((refused.exception.status, refused.exception.code, refused.exception.line), (422, "unprocessable_entity", 2))
        self.assertIn('id "not-an-id" is not in the test set', str(refused.exception))

    def test_the_leaderboard_has_every_team_with_flat_columns(self):
        self.client.submit(PREDICTIONS)
        rows = self.client.leaderboard()
        self.assertEqual([r["rank"] for r in rows], list(range(1, len(rows) + 1)))
        ours = next(r for r in rows if r["team"] == os.environ["QUILTBOARD_TEST_TEAM"])
        self.assertEqual(
            set(ours), {"rank", "team", "team_id", "score", "kind", "bound", "uncertainty", "decimals", "submissions", "last_submission_at", "budget_remaining", "budget_initial"}
        )
        self.assertIsInstance(ours["last_submission_at"], datetime.datetime)

    def test_the_leaderboard_as_csv(self):
        self.client.submit(PREDICTIONS)
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "board.csv")
            text = self.client.leaderboard_csv(path)
            with open(path, encoding="utf-8", newline="") as file:
                self.assertEqual(file.read(), text)
        rows = list(csv.DictReader(io.StringIO(text)))
        self.assertEqual(next(r for r in rows if r["team"] == os.environ["QUILTBOARD_TEST_TEAM"])["rank"], "1")

    def test_competitions_and_files(self):
        slug = URL.rstrip("/").split("/")[-1]
        server = Client(URL.rsplit("/competitions/", 1)[0])  # the server's address alone
        ours = next(c for c in server.competitions() if c["slug"] == slug)
        self.assertEqual(ours["status"], "published")
        self.assertIsInstance(ours["ends_at"], datetime.datetime)
        text = os.environ["QUILTBOARD_TEST_ATTACHMENT_TEXT"].encode("utf-8")
        [listed] = self.client.files()
        self.assertEqual(
            (listed["filename"], listed["size"], listed["sha256"], listed["content_type"]),
            (os.environ["QUILTBOARD_TEST_ATTACHMENT"], len(text), hashlib.sha256(text).hexdigest(), "text/plain"),
        )
        with self.assertRaises(ValueError):
            server.files()

    def test_the_final_selection(self):
        first = self.client.submit(PREDICTIONS)
        second = self.client.submit(FakeFrame(flipped_rows()))
        self.assertEqual(self.client.select_final([first.id[:8]]), [first.id])
        self.assertEqual(sorted(self.client.select_final([second, first.id])), sorted([first.id, second.id]))
        self.assertEqual(self.client.select_final([second.id]), [second.id])
        with self.assertRaises(QuiltboardError):
            self.client.select_final(["ffffffff"])

    def test_limits(self):
        limits = self.client.limits()
        self.assertEqual(limits.daily_limit, int(os.environ["QUILTBOARD_TEST_DAILY"]))
        self.assertEqual(limits.used_today + limits.remaining_today, limits.daily_limit)
        self.assertEqual((limits.resets_at.tzinfo, limits.resets_at.hour, limits.resets_at.minute), (UTC, 0, 0))
        self.assertIn("submissions left today", str(limits))

    def test_download_writes_the_data_files_and_skips_those_already_there(self):
        text = os.environ["QUILTBOARD_TEST_ATTACHMENT_TEXT"]
        with tempfile.TemporaryDirectory() as directory:
            paths = self.client.download(directory)
            self.assertEqual([os.path.basename(p) for p in paths], [os.environ["QUILTBOARD_TEST_ATTACHMENT"]])
            with open(paths[0], encoding="utf-8") as file:
                self.assertEqual(file.read(), text)
            # Already there with the listed SHA-256: not written again (its modification time stays), unless force=True.
            os.utime(paths[0], (0, 0))
            self.assertEqual(self.client.download(directory, file=os.environ["QUILTBOARD_TEST_ATTACHMENT"]), paths)
            self.assertEqual(os.stat(paths[0]).st_mtime, 0)
            self.client.download(directory, force=True)
            self.assertNotEqual(os.stat(paths[0]).st_mtime, 0)
            # A changed local copy is fetched again.
            with open(paths[0], "w", encoding="utf-8") as file:
                file.write("edited locally\n")
            self.client.download(directory)
            with open(paths[0], encoding="utf-8") as file:
                self.assertEqual(file.read(), text)
        with self.assertRaises(QuiltboardError) as missing:
            self.client.download(tempfile.mkdtemp(), file="nope.csv")
        self.assertEqual(str(missing.exception), "no data file called nope.csv; files() lists them")

    def test_a_download_cut_off_resumes_with_range_and_if_range_and_ends_with_the_listed_sha256(self):
        name, text = os.environ["QUILTBOARD_TEST_ATTACHMENT"], os.environ["QUILTBOARD_TEST_ATTACHMENT_TEXT"].encode("utf-8")
        etag = f'"{hashlib.sha256(text).hexdigest()}"'
        with CuttingProxy(cut=10) as proxy, tempfile.TemporaryDirectory() as directory:
            client = Client(proxy.url)
            with self.assertRaises(QuiltboardError) as cut:
                client.download(directory)
            part = os.path.join(directory, name + ".part")
            self.assertEqual(str(cut.exception), f"{name}: the download was cut off after 10 of {len(text)} bytes; {part} keeps them: call download() again to resume")
            self.assertEqual(sorted(os.listdir(directory)), [name + ".part", name + ".part.etag"])
            with open(part, "rb") as file:
                self.assertEqual(file.read(), text[:10])
            # Called again: only the rest, under the ETag the part came with.
            [path] = client.download(directory)
            self.assertEqual(proxy.downloads, [(None, None, 200), ("bytes=10-", etag, 206)])
            with open(path, "rb") as file:
                self.assertEqual(file.read(), text)
            self.assertEqual(os.listdir(directory), [name])

    def test_a_corrupted_partial_download_is_deleted_and_one_of_another_version_fetched_whole(self):
        name, text = os.environ["QUILTBOARD_TEST_ATTACHMENT"], os.environ["QUILTBOARD_TEST_ATTACHMENT_TEXT"].encode("utf-8")
        etag = f'"{hashlib.sha256(text).hexdigest()}"'
        with tempfile.TemporaryDirectory() as directory:
            part, path = os.path.join(directory, name + ".part"), os.path.join(directory, name)

            def leave_part(data, tag):
                with open(part, "wb") as file:
                    file.write(data)
                with open(part + ".etag", "w") as file:
                    file.write(tag + "\n")

            leave_part(b"X" * 10, etag)  # ten bytes that are not the file's
            with self.assertRaises(QuiltboardError) as corrupted:
                self.client.download(directory)
            self.assertEqual(
                str(corrupted.exception),
                f"{name}: the whole file ({len(text)} bytes) has another SHA-256 than the server lists, so the partial download {part} was deleted: call download() again to download it afresh",
            )
            self.assertEqual(os.listdir(directory), [])
            # A part of another version of the file (If-Range with its old ETag): the server sends the whole file again.
            leave_part(b"Y" * 10, '"0000"')
            with CuttingProxy(cut=10**9) as proxy:
                self.assertEqual(Client(proxy.url).download(directory), [path])
                self.assertEqual(proxy.downloads, [("bytes=10-", '"0000"', 200)])
            with open(path, "rb") as file:
                self.assertEqual(file.read(), text)
            self.assertEqual(os.listdir(directory), [name])

    def test_competitions_by_search_status_mine_and_page(self):
        slug = URL.rstrip("/").split("/")[-1]
        server = Client(URL.rsplit("/competitions/", 1)[0])
        title = os.environ["QUILTBOARD_TEST_TITLE"]
        [found] = server.competitions(search=title[:-2].lower())  # the start of the word
        self.assertEqual((found["slug"], found["title"], found["status"]), (slug, title, "published"))
        self.assertEqual(set(found), {"slug", "title", "status", "metric", "starts_at", "ends_at", "closed_at", "teams"})
        self.assertIsInstance(found["ends_at"], datetime.datetime)
        self.assertEqual([c["slug"] for c in server.competitions(search=title, status="open")], [slug])
        self.assertEqual(server.competitions(search=title, status="closed"), [])
        self.assertEqual(server.competitions(search=title, page=2), [])
        self.assertEqual([c["slug"] for c in self.client.competitions(search=title, mine=True)], [slug])
        self.assertIn(slug, [c["slug"] for c in self.client.competitions(mine=True)])
        self.assertTrue(all(c["status"] != "closed" and c["closed_at"] is None for c in server.competitions(status="open")))
        with self.assertRaises(QuiltboardError) as signed_out:
            Client(URL.rsplit("/competitions/", 1)[0], token="").competitions(mine=True)
        self.assertEqual(signed_out.exception.status, 401)
        with self.assertRaises(ValueError):
            server.competitions(status="finished")

    def test_an_upload_refused_for_a_moment_is_sent_again_after_the_wait_the_server_asks(self):
        with open(PREDICTIONS, newline="") as file:
            rows = list(csv.reader(file))
        rows[2][1] = "spike" if rows[2][1] == "none" else "none"  # a file of its own
        for row in rows[1:]:
            row[1] += " " * (1_000_000 // (len(rows) - 1))  # about 1 MB in all, padded with spaces (which the server trims)
        path = os.path.join(tempfile.mkdtemp(), "retry.csv")
        with open(path, "w", newline="") as file:
            csv.writer(file, lineterminator="\n").writerows(rows)
        with open(path, "rb") as file:
            body = file.read()

        # Two uploads of the same file, each sent at about 160 KiB a second for 6 s, hold the account's
        # two upload slots (a body slower than 64 KiB a second would be cut off: docs/api.md, Uploads
        # and downloads).
        answers = []

        def slow_upload():
            parsed = urllib.parse.urlsplit(URL)
            slug = parsed.path.rstrip("/").split("/")[-1]
            connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
            connection.putrequest("POST", f"/api/v1/competitions/{slug}/submissions?filename=retry.csv")
            for name, value in {
                "authorization": f"Bearer {os.environ['QUILTBOARD_TOKEN']}",
                "content-type": "text/csv",
                "content-length": str(len(body)),
                "idempotency-key": hashlib.sha256(body).hexdigest(),
            }.items():
                connection.putheader(name, value)
            connection.endheaders()
            for at in range(0, len(body), 16384):
                connection.send(body[at : at + 16384])
                time.sleep(0.1)
            answers.append(connection.getresponse().status)
            connection.close()

        uploads = [threading.Thread(target=slow_upload) for _ in range(2)]
        for upload in uploads:
            upload.start()
        # A client that waits at most 1 s is refused at once with the server's Retry-After, once both
        # slots are held (until then a broken file gets its 422, read and refused, nothing spent).
        broken = os.path.join(os.path.dirname(path), "broken.csv")
        with open(broken, "w") as file:
            file.write("id,prediction\nnot-an-id,none\n")
        deadline = time.monotonic() + 3
        while True:
            with self.assertRaises(QuiltboardError) as refused:
                Client(URL, max_wait=1).submit(broken)
            if refused.exception.status != 422 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        self.assertEqual((refused.exception.status, refused.exception.retry_after), (429, 5))
        self.assertIn("uploads in progress", str(refused.exception))
        # The default client waits the 5 s (twice, while the slow uploads last) and sends it again: the
        # same submission, nothing more spent.
        started = time.monotonic()
        answer = self.client.submit(path)
        self.assertGreaterEqual(time.monotonic() - started, 5)
        for upload in uploads:
            upload.join()
        self.assertEqual(sorted(answers), [200, 201])
        self.assertTrue(answer.replayed)
        self.assertEqual(len([s for s in self.client.submissions() if s.filename == "retry.csv"]), 1)

    def test_a_wrong_token_or_address_is_an_error_that_says_so(self):
        with self.assertRaises(QuiltboardError) as refused:
            Client(URL, token="qb_not-a-token").limits()
        self.assertEqual(refused.exception.status, 401)
        with self.assertRaises(ValueError):
            Client("https://quiltboard.example.org/no-competition-here")


if __name__ == "__main__":
    unittest.main()
