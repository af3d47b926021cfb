#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# The HTML report in a real browser (issue 22): headless Chromium loads the
# reports of simulated experiments (and of the shared scp fixture when it is
# there), and we check the dumped DOM for the page's elements, that the page
# logged nothing to the console, that it refers to nothing outside itself,
# its size, and that its screenshot is not blank.
#
#   html_report_browser_test.sh TRACESYNC WORK_DIR SHARED_DIR CASE
#   CASE: scp | sim2 | sim16 | sim1000
# Exit 77 (reported as skipped by CTest) when Chromium or the fixture is absent.
set -euo pipefail
tracesync=$1 work=$2 shared=$3 case=$4

chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
  echo "SKIPPED: chromium is not installed (scripts/setup.sh --test installs it)"
  exit 77
fi
dir=$work/html-report-$case
rm -rf "$dir" && mkdir -p "$dir"
report=$dir/report.html
max_bytes=$((20 * 1024 * 1024))

case $case in
  scp)
    fixture=$shared/fixtures/lttng-modules-2.1-addons
    if [[ ! -d $fixture/scp_src ]]; then
      echo "SKIPPED: the shared scp fixture is absent ($fixture)"
      exit 77
    fi
    "$tracesync" sync --format html -o "$report" "$fixture/scp_src" "$fixture/scp_dest"
    ;;
  sim2 | sim16)
    hosts=${case#sim}
    "$tracesync" simulate --quiet --hosts "$hosts" --duration 2s --write-matches --no-traces -o "$dir/sim"
    "$tracesync" sync --format html -o "$report" --matches "$dir/sim/matches.txt"
    ;;
  sim1000)
    "$tracesync" simulate --quiet --hosts 1000 --topology random --duration 1s --write-matches --no-traces -o "$dir/sim"
    "$tracesync" sync --format html -o "$report" --matches "$dir/sim/matches.txt"
    ;;
  *) echo "unknown case $case" >&2; exit 2 ;;
esac

fail() { echo "FAIL ($case): $*" >&2; exit 1; }

bytes=$(stat -c %s "$report")
echo "$case: report of $bytes bytes"
((bytes < max_bytes)) || fail "the report is $bytes bytes, over 20 MB"
# Self-contained: no reference to anything outside the page.
if grep -Eq 'https?://|src=|url\(|@import|<link' "$report"; then
  fail "the page refers to something outside itself: $(grep -Eo '.{20}(https?://|src=|url\(|@import|<link).{20}' "$report" | head -3)"
fi

browser() {
  timeout 300 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$(mktemp -d -p "$dir")" \
    --enable-logging=stderr --v=0 "$@"
}

# The console check must be able to fail: a page that logs an error shows up.
printf '<!DOCTYPE html><script>console.error("canary-error")</script>' > "$dir/canary.html"
printf '<!DOCTYPE html><title>empty</title>' > "$dir/empty.html"
browser --dump-dom "file://$dir/canary.html" > /dev/null 2> "$dir/canary.log" || true
grep -q 'CONSOLE.*canary-error' "$dir/canary.log" || fail "Chromium's log does not show console messages; cannot check the page"

browser --dump-dom "file://$report" > "$dir/dom.html" 2> "$dir/dom.log" || fail "chromium --dump-dom failed: $(tail -5 "$dir/dom.log")"
if grep -q 'CONSOLE' "$dir/dom.log"; then
  fail "the page logged to the console: $(grep 'CONSOLE' "$dir/dom.log" | head -5)"
fi
for id in summary verdict causality after-count network-svg trace-list trace-list-pager link-list link-list-pager matching options latency-bins; do
  grep -q "id=\"$id\"" "$dir/dom.html" || fail "no element with id '$id' in the rendered DOM"
done
# The script ran: it wrote the pagers' counts.
grep -Eq 'id="trace-list-pager"><span>[0-9]+ of [0-9]+ shown' "$dir/dom.html" || fail "the paging script did not run"
case $case in
  sim2 | sim16 | scp)
    grep -q 'id="plot-0-zoom"' "$dir/dom.html" || fail "no plot of the first link"
    grep -q 'ACCURATE' "$dir/dom.html" || fail "no ACCURATE link named in words"
    ;;
esac
if [[ $case == sim1000 ]]; then
  grep -Eq 'id="trace-list-pager"><span>1000 of 1000 shown, page 1 of 20' "$dir/dom.html" || fail "1,000 traces are not paged by 50"
fi
# The proof: every message is received after it was sent, after
# synchronization, on the links of the tree (all of them for the real pair).
if [[ $case == scp ]]; then
  grep -q 'id="after-count">0<' "$dir/dom.html" || fail "the real pair has messages received before sent after synchronization"
fi
grep -q 'on an ACCURATE link of the tree</strong>' "$dir/dom.html" && fail "an ACCURATE link of the tree has messages received before sent after synchronization"
# Latency histograms are drawn when their link is opened: open the first
# through the address, as a click on the network picture does.
grep -q 'id="latency-0-ab" data-bars=' "$dir/dom.html" || fail "no latency histogram data for the first link"
grep -q 'id="latency-0-ab" data-bars=[^>]*><svg' "$dir/dom.html" && fail "the histogram was drawn before its link was opened"
browser --dump-dom "file://$report#link-0" > "$dir/dom-link0.html" 2> "$dir/dom-link0.log" || fail "chromium --dump-dom of #link-0 failed"
grep -q 'CONSOLE' "$dir/dom-link0.log" && fail "opening a link logged to the console: $(grep 'CONSOLE' "$dir/dom-link0.log" | head -5)"
grep -q '<details class="item" id="link-0"[^>]* open=""' "$dir/dom-link0.html" || fail "#link-0 did not open the first link"
for direction in ab ba; do
  grep -Eq "id=\"latency-0-$direction\" data-bars=[^>]*><svg class=\"hist\"" "$dir/dom-link0.html" ||
    fail "the first link's $direction histogram was not drawn when it opened"
done
grep -Eq '<rect class="before" [^>]*><title>[^<]*: [0-9]+ message\(s\) before synchronization</title>' "$dir/dom-link0.html" ||
  fail "no bar of latencies before synchronization"
grep -Eq '<rect class="after" [^>]*><title>[^<]*: [0-9]+ message\(s\) after synchronization</title>' "$dir/dom-link0.html" ||
  fail "no bar of latencies after synchronization"

browser --screenshot="$dir/screenshot.png" --window-size=1280,2000 "file://$report" > /dev/null 2> "$dir/shot.log" ||
  fail "chromium --screenshot failed: $(tail -5 "$dir/shot.log")"
# The blank check must be able to fail: an empty page's screenshot is one colour.
browser --screenshot="$dir/blank.png" --window-size=400,300 "file://$dir/empty.html" > /dev/null 2>&1 ||
  fail "chromium --screenshot of an empty page failed"
python3 "$(dirname "$0")/png_colours.py" "$dir/blank.png" 2 2> /dev/null && fail "an empty page's screenshot counted as not blank"
python3 "$(dirname "$0")/png_colours.py" "$dir/screenshot.png" 16 || fail "the screenshot is blank (under 16 colours)"
echo "$case: OK; screenshot $dir/screenshot.png"
