#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# The HTML report driven through playwright-core (html_report_page.js): no
# request but its own load, nothing on the console, a click on a link opens
# it with its proof drawn. It reads the report html_report_browser_test.sh
# made for the same case (a CTest fixture).
#
#   html_report_page_test.sh WORK_DIR CASE NODE_MODULES
# Exit 77 (reported as skipped by CTest) when node, Chromium,
# playwright-core or the case's report is absent.
set -euo pipefail
work=$1 case=$2 modules=$3

dir=$work/html-report-$case
report=$dir/report.html
chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
  echo "SKIPPED: chromium is not installed (scripts/setup.sh --test installs it)"
  exit 77
fi
if ! command -v node > /dev/null; then
  echo "SKIPPED: node is not installed (scripts/setup.sh --test installs it)"
  exit 77
fi
if [[ ! -f $report ]]; then
  echo "SKIPPED: no report for $case (html_report_browser_$case skipped or did not make it)"
  exit 77
fi
mkdir -p "$dir/page"
timeout 600 node "$(dirname "$0")/html_report_page.js" "$modules" "$chromium" "$report" "$dir/page"
