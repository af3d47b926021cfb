// SPDX-License-Identifier: EPL-2.0
#include "snapshot/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "snapshot/html_model.h"
#include "snapshot/latency_bins.h"
#include "snapshot/link_evidence_summary.h"
#include "snapshot/people_order.h"
#include "snapshot/utf8.h"

#ifndef TRACESYNC_VERSION
#define TRACESYNC_VERSION "unknown"
#endif

namespace tracesync::snapshot {
namespace {

using html::human_duration;
using html::quality_meaning;
using html::quality_word;
using html::Range;
using html::RelativePoint;

// Every text of the page passes here: it comes out UTF-8, as the page
// declares (a snapshot's names already are; see snapshot/exact_names.h).
std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : readable_text(text)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string number(double v, int decimals = 1) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

std::string bound_text(double ns) { return std::isfinite(ns) ? "\u00b1" + human_duration(ns) : "unbounded"; }

std::string quality_class(v1::Quality q) {
  std::string word = quality_word(q);
  std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return "q-" + word;
}

// A link's bound in words: "ACCURATE, ±1.2 us".
std::string link_label(const v1::Link& l) {
  return quality_word(l.quality()) + ", " + (l.has_uncertainty_ns() ? bound_text(l.uncertainty_ns()) : "unbounded");
}

// Domains are keyed by id (a clock UUID for real traces) but shown by hostname.
class DomainNames {
 public:
  explicit DomainNames(const v1::Snapshot& s) {
    for (const v1::Trace& t : s.traces()) {
      if (!t.hostname().empty()) hostname_.emplace(t.domain(), t.hostname());
    }
  }
  std::string operator()(const std::string& id) const {
    const auto it = hostname_.find(id);
    return it == hostname_.end() ? id : it->second;
  }

 private:
  std::map<std::string, std::string> hostname_;
};

std::string link_id(int index) { return "link-" + std::to_string(index); }
std::string trace_id(int index) { return "trace-" + std::to_string(index); }

// --- Plots -------------------------------------------------------------------

// Maps data coordinates onto an SVG of `width` x `height` pixels with room
// for axis labels, and draws the axes.
class SvgPlot {
 public:
  SvgPlot(Range x, Range y, int width, int height) : x_(x), y_(y), width_(width), height_(height) {
    if (x_.hi <= x_.lo) x_.hi = x_.lo + 1;
    if (y_.hi <= y_.lo) y_.hi = y_.lo + 1;
  }
  double px(double x) const { return kLeft + (x - x_.lo) / (x_.hi - x_.lo) * (width_ - kLeft - kRight); }
  double py(double y) const { return height_ - kBottom - (y - y_.lo) / (y_.hi - y_.lo) * (height_ - kTop - kBottom); }

  void open(std::ostream& out, const std::string& id, const std::string& label, const std::string& x_title,
            const std::string& y_title) const {
    out << "<svg class=\"plot\" id=\"" << id << "\" role=\"img\" aria-label=\"" << escape(label) << "\" viewBox=\"0 0 "
        << width_ << " " << height_ << "\" width=\"" << width_ << "\" height=\"" << height_ << "\">";
    out << "<rect class=\"frame\" x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << width_ - kLeft - kRight
        << "\" height=\"" << height_ - kTop - kBottom << "\"/>";
    for (int i = 0; i <= kTicks; ++i) {
      const double x = x_.lo + (x_.hi - x_.lo) * i / kTicks;
      out << "<text class=\"tick\" x=\"" << number(px(x)) << "\" y=\"" << height_ - kBottom + 14
          << "\" text-anchor=\"middle\">"
          // A zoomed axis far from its origin: the first tick says where, the
          // others how far from it (13.8 s, +20 ms, ...), not 13.8 s again.
          << escape(i == 0 || x_.lo == 0 ? human_duration(x) : "+" + human_duration(x - x_.lo)) << "</text>";
      const double y = y_.lo + (y_.hi - y_.lo) * i / kTicks;
      out << "<text class=\"tick\" x=\"" << kLeft - 4 << "\" y=\"" << number(py(y) + 4) << "\" text-anchor=\"end\">"
          << escape(human_duration(y)) << "</text>";
    }
    out << "<text class=\"axis\" x=\"" << kLeft + (width_ - kLeft - kRight) / 2 << "\" y=\"" << height_ - 4
        << "\" text-anchor=\"middle\">" << escape(x_title) << "</text>";
    out << "<text class=\"axis\" x=\"" << kLeft << "\" y=\"12\">" << escape(y_title) << "</text>";
    out << "<svg x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << width_ - kLeft - kRight << "\" height=\""
        << height_ - kTop - kBottom << "\" viewBox=\"" << kLeft << " " << kTop << " " << width_ - kLeft - kRight << " "
        << height_ - kTop - kBottom << "\" overflow=\"hidden\">";  // clips what lies outside the frame
  }
  void close(std::ostream& out) const { out << "</svg></svg>"; }

  void polyline(std::ostream& out, const std::vector<RelativePoint>& points, const std::string& cls) const {
    out << "<polyline class=\"" << cls << "\" points=\"";
    for (const RelativePoint& p : points) out << number(px(p.x_ns)) << "," << number(py(p.y_ns)) << " ";
    out << "\"/>";
  }
  void vertical(std::ostream& out, double x, const std::string& cls) const {
    out << "<line class=\"" << cls << "\" x1=\"" << number(px(x)) << "\" x2=\"" << number(px(x)) << "\" y1=\"" << kTop
        << "\" y2=\"" << height_ - kBottom << "\"/>";
  }

 private:
  static constexpr int kLeft = 70, kRight = 36, kTop = 18, kBottom = 34, kTicks = 4;
  Range x_, y_;
  int width_, height_;
};

void bound_plot(std::ostream& out, const std::string& id, const std::vector<html::TracePiece>& pieces) {
  const std::vector<RelativePoint> curve = html::bound_curve(pieces);
  Range x{0, 1}, y{0, 1};
  for (const RelativePoint& p : curve) {
    x.hi = std::max(x.hi, p.x_ns);
    if (std::isfinite(p.y_ns)) y.hi = std::max(y.hi, p.y_ns * 1.1);
  }
  const SvgPlot plot(x, y, 640, 170);
  plot.open(out, id, "the bound over time", "time since the trace's start (its own clock)", "bound (\u00b1)");
  for (std::size_t i = 1; i < pieces.size(); ++i) plot.vertical(out, curve[2 * i].x_ns, "boundary");
  plot.polyline(out, curve, "bound");
  plot.close(out);
}

void link_plot_svg(std::ostream& out, const std::string& id, const html::LinkPlot& lp, Range x, const std::string& a,
                   const std::string& b) {
  const Range y = html::y_range(lp, x);
  const double pad = (y.hi - y.lo) * 0.08;
  const SvgPlot plot(x, {y.lo - pad, y.hi + pad}, 720, 300);
  plot.open(out, id, "hull vertices and bounding lines", "time on " + a + " since the link's first message",
            "receive time on " + b + " minus the estimate");
  for (const double boundary : lp.boundaries) plot.vertical(out, boundary, "boundary");
  const auto segment = [&](const html::RelativeSegment& s, const std::string& cls) {
    plot.polyline(out, {s.from, s.to}, cls);
  };
  for (const html::LinkPlotPiece& p : lp.pieces) {
    if (p.lmin) segment(*p.lmin, "lmin");
    if (p.lmax) segment(*p.lmax, "lmax");
    segment(p.estimate, "estimate");
  }
  // a -> b messages as filled circles, b -> a as hollow squares: told apart
  // by shape as well as colour. Every hull vertex is drawn.
  for (const RelativePoint& p : lp.lower) {
    out << "<circle class=\"ab\" cx=\"" << number(plot.px(p.x_ns)) << "\" cy=\"" << number(plot.py(p.y_ns)) << "\" r=\"3.5\"/>";
  }
  for (const RelativePoint& p : lp.upper) {
    out << "<rect class=\"ba\" x=\"" << number(plot.px(p.x_ns) - 3.5) << "\" y=\"" << number(plot.py(p.y_ns) - 3.5)
        << "\" width=\"7\" height=\"7\"/>";
  }
  plot.close(out);
}

// --- The network picture -----------------------------------------------------

struct TreeNode {
  std::string domain;
  int depth = 0;
  double row = 0;
  std::vector<std::pair<int, int>> children;  // (node, link index)
};

// Lays an island's spanning tree out from its reference: one column per
// depth, leaves on successive rows, a parent in the middle of its children.
std::vector<TreeNode> lay_out(const v1::Island& island, const v1::Snapshot& s, double& next_row) {
  std::map<std::string, std::vector<std::pair<std::string, int>>> tree;
  for (int i = 0; i < s.links_size(); ++i) {
    const v1::Link& l = s.links(i);
    if (!l.in_tree()) continue;
    tree[l.a()].push_back({l.b(), i});
    tree[l.b()].push_back({l.a(), i});
  }
  std::vector<TreeNode> nodes;
  std::set<std::string> placed;
  // Iterative depth-first walk: a 1,000-host chain must not overflow the stack.
  const auto place_tree = [&](const std::string& root) {
    struct Frame {
      int node;
      std::size_t next_child;
    };
    nodes.push_back({root, 0, 0, {}});
    placed.insert(root);
    std::vector<Frame> stack{{static_cast<int>(nodes.size()) - 1, 0}};
    while (!stack.empty()) {
      Frame& f = stack.back();
      const std::string domain = nodes[f.node].domain;
      const auto& neighbours = tree[domain];
      if (f.next_child < neighbours.size()) {
        const auto [to, link] = neighbours[f.next_child++];
        if (placed.insert(to).second) {
          const int parent = f.node;
          nodes.push_back({to, nodes[parent].depth + 1, 0, {}});
          const int child = static_cast<int>(nodes.size()) - 1;
          nodes[parent].children.push_back({child, link});
          stack.push_back({child, 0});
        }
        continue;
      }
      TreeNode& n = nodes[f.node];
      if (n.children.empty()) {
        n.row = next_row++;
      } else {
        n.row = (nodes[n.children.front().first].row + nodes[n.children.back().first].row) / 2;
      }
      stack.pop_back();
    }
  };
  place_tree(island.reference());
  // Domains the tree does not reach (there should be none) still appear.
  for (const std::string& d : island.domains()) {
    if (placed.count(d) == 0) place_tree(d);
  }
  return nodes;
}

void network_picture(std::ostream& out, const v1::Snapshot& s, const DomainNames& name) {
  constexpr int kColumn = 250, kRow = 34, kLeft = 16, kIslandGap = 40;
  struct Placed {
    std::vector<TreeNode> nodes;
    double first_row;
    const v1::Island* island;
  };
  std::vector<Placed> islands;
  double row = 0;
  int depth = 0;
  for (const v1::Island& island : s.islands()) {
    const double first = row;
    std::vector<TreeNode> nodes = lay_out(island, s, row);
    for (const TreeNode& n : nodes) depth = std::max(depth, n.depth);
    islands.push_back({std::move(nodes), first, &island});
  }
  const int width = kLeft + (depth + 1) * kColumn + 40;
  const int height = static_cast<int>(row) * kRow + static_cast<int>(islands.size()) * kIslandGap + 20;
  out << "<svg id=\"network-svg\" role=\"img\" aria-label=\"the network: each island's tree from its reference\" "
         "viewBox=\"0 0 "
      << width << " " << height << "\" width=\"" << width << "\" height=\"" << height << "\">";
  // Rows are numbered across islands; each island adds a gap for its title.
  for (std::size_t k = 0; k < islands.size(); ++k) {
    const Placed& p = islands[k];
    const double top = static_cast<double>(k) * kIslandGap + p.first_row * kRow;
    const auto x_of = [&](const TreeNode& n) { return kLeft + n.depth * kColumn; };
    const auto y_of = [&](const TreeNode& n) { return top + kIslandGap + (n.row - p.first_row) * kRow; };
    out << "<text class=\"island\" x=\"" << kLeft << "\" y=\"" << number(top + 22) << "\">Island " << p.island->id()
        << ": " << p.island->domains_size() << " clock domain(s), reference " << escape(name(p.island->reference()))
        << (p.island->forced() ? " (chosen by the user)" : "") << "</text>";
    for (const TreeNode& n : p.nodes) {
      for (const auto& [child, link] : n.children) {
        const v1::Link& l = s.links(link);
        const TreeNode& c = p.nodes[child];
        const double x1 = x_of(n) + 8, y1 = y_of(n), x2 = x_of(c), y2 = y_of(c);
        const double xm = x1 + 12;
        out << "<a href=\"#" << link_id(link) << "\" class=\"edge " << quality_class(l.quality()) << "\"><title>"
            << escape(name(l.a()) + " \u2194 " + name(l.b()) + ": " + link_label(l) + " (" + quality_meaning(l.quality()) +
                      "); click for details")
            << "</title><path d=\"M" << number(x1) << "," << number(y1) << " H" << number(xm) << " V" << number(y2) << " H"
            << number(x2) << "\"/><text x=\"" << number(xm + 6) << "\" y=\"" << number(y2 - 5) << "\">"
            << escape(link_label(l)) << "</text></a>";
      }
    }
    for (const TreeNode& n : p.nodes) {
      const bool reference = n.domain == p.island->reference();
      out << "<g class=\"node" << (reference ? " reference" : "") << "\">";
      if (reference) {
        out << "<rect x=\"" << x_of(n) - 6 << "\" y=\"" << number(y_of(n) + 1) << "\" width=\"" << kColumn - 60
            << "\" height=\"18\" rx=\"4\"/>";
      }
      out << "<circle cx=\"" << x_of(n) << "\" cy=\"" << number(y_of(n)) << "\" r=\"4\"/><text x=\"" << x_of(n) + 10
          << "\" y=\"" << number(y_of(n) + 14) << "\">" << escape(name(n.domain)) << (reference ? " \u2014 reference" : "")
          << "</text></g>";
    }
  }
  out << "</svg>";
}

// --- Sections ----------------------------------------------------------------

const char* kStyle = R"CSS(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0 auto;max-width:1180px;padding:0 16px 40px;color:#1b1b1b;line-height:1.4}
h1{font-size:1.6em;margin:.6em 0 .2em}h2{border-bottom:2px solid #ccc;padding-bottom:2px;margin-top:1.6em}
table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}
th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}
.verdict{font-size:1.15em;padding:8px 12px;border-left:6px solid #2e7d32;background:#f1f8f1}
.verdict.bad{border-color:#c62828;background:#fdf0f0}.warn{color:#b71c1c;font-weight:bold}
.quality{font-weight:bold;padding:0 4px;border-radius:3px}
.q-accurate{color:#1b5e20}.q-approximate{color:#8a6d00}.q-incomplete{color:#8a4b00}.q-absent{color:#555}.q-fail{color:#b71c1c}
details.item{border:1px solid #ddd;border-radius:4px;margin:4px 0;padding:2px 8px}
details.item>summary{cursor:pointer}details.item[open]{background:#fafafa}
.controls{margin:.4em 0}.controls input{font-size:1em;padding:2px 6px;width:22em}.controls button{margin:0 2px}
#network-box{overflow:auto;max-height:900px;border:1px solid #ddd}
#network-svg text{font-size:12px}#network-svg .island{font-weight:bold;font-size:14px}
#network-svg .edge path{fill:none;stroke:#2e7d32;stroke-width:2}#network-svg .edge text{fill:#1b5e20}
#network-svg .edge.q-fail path{stroke:#c62828;stroke-dasharray:6 3}#network-svg .edge.q-fail text{fill:#b71c1c}
#network-svg .edge.q-incomplete path,#network-svg .edge.q-absent path{stroke:#999;stroke-dasharray:2 3}
#network-svg .edge.q-approximate path{stroke:#b08c00}
#network-svg .edge:hover path{stroke-width:4}#network-svg .edge:hover text{font-weight:bold}
#network-svg .node circle{fill:#333}#network-svg .node.reference rect{fill:#fff3c4;stroke:#b08c00}
#network-svg .node.reference text{font-weight:bold}
svg.plot{display:block;margin:.3em 0;max-width:100%;height:auto}
svg.plot .frame{fill:#fff;stroke:#999}svg.plot .tick{font-size:10px;fill:#444}svg.plot .axis{font-size:11px;fill:#222}
svg.plot polyline{fill:none;stroke-width:1.5}svg.plot .bound{stroke:#1565c0;stroke-width:2}
svg.plot .estimate{stroke:#222}svg.plot .lmin{stroke:#6a1b9a;stroke-dasharray:6 3}svg.plot .lmax{stroke:#ef6c00;stroke-dasharray:2 2}
svg.plot .boundary{stroke:#888;stroke-dasharray:4 4}svg.plot .ab{fill:#1565c0}svg.plot .ba{fill:none;stroke:#c62828;stroke-width:1.5}
.legend>span{margin-right:1.2em;display:inline-block}.legend svg{vertical-align:middle}
.pager{margin:.3em 0}.muted{color:#666}
.proof{border-top:1px dashed #ccc;margin-top:.6em}.proof h4{margin:.5em 0 .2em}
figure.latency{margin:.4em 0}figure.latency figcaption{font-size:.95em}
svg.hist{display:block;max-width:100%;height:auto}svg.hist text{font-size:10px;fill:#333}
svg.hist .before{fill:#9e9e9e}svg.hist .after{fill:#1565c0}svg.hist .negative{fill:#fbe9e7}
svg.hist .zero{stroke:#222;stroke-dasharray:3 2}svg.hist .axis{stroke:#666}svg.hist .side{font-weight:bold;font-size:11px}
@media print{.controls,.pager{display:none}details.item{break-inside:avoid}#network-box{max-height:none;overflow:visible}
.paged>.item{display:block!important}a{color:inherit;text-decoration:none}body{max-width:none}}
)CSS";

// Filtering and paging of long lists, and opening a link's details when the
// network picture is clicked. No request of any kind.
const char* kScript = R"JS(
(function(){
var PAGE=50;
function setup(list){
  var items=Array.prototype.slice.call(list.children).filter(function(e){return e.classList.contains('item');});
  var box=document.getElementById(list.id+'-filter'),pager=document.getElementById(list.id+'-pager');
  var page=0,shown=items;
  function render(){
    var pages=Math.max(1,Math.ceil(shown.length/PAGE));if(page>=pages)page=pages-1;
    items.forEach(function(e){e.style.display='none';});
    shown.slice(page*PAGE,page*PAGE+PAGE).forEach(function(e){e.style.display='';});
    pager.textContent='';
    var info=document.createElement('span');
    info.textContent=shown.length+' of '+items.length+' shown'+(pages>1?', page '+(page+1)+' of '+pages:'')+' ';
    pager.appendChild(info);
    if(pages>1){[['\u2190 previous',-1],['next \u2192',1]].forEach(function(b){
      var btn=document.createElement('button');btn.type='button';btn.textContent=b[0];
      btn.disabled=(page+b[1]<0||page+b[1]>=pages);
      btn.onclick=function(){page+=b[1];render();};pager.appendChild(btn);});}
  }
  box.addEventListener('input',function(){
    var q=box.value.toLowerCase();
    shown=items.filter(function(e){return e.getAttribute('data-search').indexOf(q)>=0;});page=0;render();});
  list.reveal=function(el){var i=items.indexOf(el);if(i<0)return;
    if(shown.indexOf(el)<0){box.value='';shown=items;}page=Math.floor(shown.indexOf(el)/PAGE);render();};
  render();
}
Array.prototype.forEach.call(document.querySelectorAll('.paged'),setup);
// Latency histograms are drawn when their link is opened: a thousand
// links' bars would weigh on the page.
var BINS=null;
function drawBars(box){
  if(box.firstChild)return;
  if(!BINS)BINS=JSON.parse(document.getElementById('latency-bins').textContent);
  var d=JSON.parse(box.getAttribute('data-bars')),n=d.n;
  // (offset, count) pairs of the non-empty bins, spread out.
  [['b','before'],['a','after']].forEach(function(k){var c=new Array(n).fill(0),p=d[k[0]];
    for(var i=0;i<p.length;i+=2)c[p[i]]=p[i+1];d[k[1]]=c;});
  var W=720,H=200,L=96,R=16,T=10,M=88,G=24,B=H-8,w=(W-L-R)/n;
  function x(edge){return (L+(edge-(d.f-0.5))*w).toFixed(1);}
  function tallest(counts){return Math.max.apply(null,counts.concat([1]));}
  var s='<svg class="hist" role="img" aria-label="latency histogram: before synchronization above the axis, after below" viewBox="0 0 '+W+' '+H+'" width="'+W+'" height="'+H+'">';
  if(d.f<0)s+='<rect class="negative" x="'+L+'" y="'+T+'" width="'+(x(-0.5)-L).toFixed(1)+'" height="'+(B-T)+'"/>'+
    '<text x="'+(L+4)+'" y="'+(T+12)+'">\u2190 received before sent</text>';
  s+='<line class="zero" x1="'+x(0)+'" x2="'+x(0)+'" y1="'+T+'" y2="'+B+'"/>';
  // Each half has its own scale, its tallest bar named on the left.
  function bars(counts,up,cls,word){var top=tallest(counts);counts.forEach(function(c,i){if(!c)return;
    var h=Math.max(1.5,c/top*(M-T)),y=up?M-h:M+G;
    s+='<rect class="'+cls+'" x="'+(L+i*w).toFixed(1)+'" y="'+y.toFixed(1)+'" width="'+Math.max(w-0.6,0.8).toFixed(1)+'" height="'+h.toFixed(1)+'"><title>'+
      BINS.ranges[d.f+i+BINS.zero]+': '+c+' message(s) '+word+'</title></rect>';});return top;}
  var top=bars(d.before,true,'before','before synchronization');
  s+='<text class="side" x="4" y="'+(T+12)+'">before \u2191</text><text x="4" y="'+(T+26)+'">tallest: '+top+'</text>';
  if(d.s){top=bars(d.after,false,'after','after synchronization');
    s+='<text class="side" x="4" y="'+(B-18)+'">after \u2193</text><text x="4" y="'+(B-4)+'">tallest: '+top+'</text>';}
  else s+='<text class="side" x="4" y="'+(B-4)+'">after</text><text x="'+(L+4)+'" y="'+(M+G+16)+'">no common time base</text>';
  s+='<line class="axis" x1="'+L+'" x2="'+(W-R)+'" y1="'+M+'" y2="'+M+'"/><line class="axis" x1="'+L+'" x2="'+(W-R)+'" y1="'+(M+G)+'" y2="'+(M+G)+'"/>';
  // A mark at every power of ten; a label at 0 and at every power, or at
  // every third (1 us, 1 ms, 1 s) when they would crowd; +-1 ns, beside 0,
  // goes unlabelled.
  var ticks=BINS.ticks.filter(function(t){return t[0]>=d.f-0.5&&t[0]<=d.f+n-0.5;});
  var step=ticks.length>9?3:1;
  ticks.forEach(function(t){
    s+='<line class="axis" x1="'+x(t[0])+'" x2="'+x(t[0])+'" y1="'+M+'" y2="'+(M+4)+'"/>';
    if(t[0]===0||(t[2]>0&&t[2]%step===0))s+='<text x="'+x(t[0])+'" y="'+(M+G/2+4)+'" text-anchor="middle">'+t[1]+'</text>';});
  box.innerHTML=s+'</svg>';
}
function drawIn(el){Array.prototype.forEach.call(el.querySelectorAll('.bars'),drawBars);}
document.addEventListener('toggle',function(e){if(e.target.open)drawIn(e.target);},true);
function openTarget(){
  var id=decodeURIComponent(location.hash.slice(1));if(!id)return;
  var el=document.getElementById(id);if(!el||el.tagName!=='DETAILS')return;
  if(el.parentNode.reveal)el.parentNode.reveal(el);
  el.open=true;drawIn(el);el.scrollIntoView();
}
window.addEventListener('hashchange',openTarget);openTarget();
window.addEventListener('beforeprint',function(){
  Array.prototype.forEach.call(document.querySelectorAll('details'),function(d){d.open=true;});drawIn(document);});
})();
)JS";

void controls(std::ostream& out, const std::string& list, const std::string& placeholder) {
  out << "<div class=\"controls\"><label>Filter: <input type=\"search\" id=\"" << list << "-filter\" placeholder=\""
      << escape(placeholder) << "\"></label></div><div class=\"pager\" id=\"" << list << "-pager\"></div>";
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// --- The proof ---------------------------------------------------------------

// The latency bins in words, once per page, for the histograms' hover text
// and axis: ranges[bin + zero] says what the bin holds; ticks are
// [position, label, power of ten] at 0 and the powers of ten, positions in
// bins (bin k spans k - 0.5 to k + 0.5).
void latency_bins_table(std::ostream& out) {
  namespace latency = snapshot::latency;
  out << "<script type=\"application/json\" id=\"latency-bins\">{\"zero\":" << latency::kLastBin << ",\"ranges\":[";
  for (int bin = -latency::kLastBin; bin <= latency::kLastBin; ++bin) {
    const latency::BinRange r = latency::bin_range(bin);
    std::string words;
    if (bin == 0) {
      words = "less than 1 ns either way";
    } else if (bin == latency::kLastBin) {
      words = human_duration(r.low) + " or more";
    } else if (bin == -latency::kLastBin) {
      words = human_duration(r.high) + " or less";
    } else {
      words = human_duration(r.low) + " to " + human_duration(r.high);
    }
    out << (bin == -latency::kLastBin ? "" : ",") << "\"" << words << "\"";
  }
  out << "],\"ticks\":[";
  for (int bin = -latency::kLastBin; bin <= latency::kLastBin; ++bin) {
    if (bin == 0) out << ",[0,\"0\",0]";
    if (!latency::starts_a_decade(bin)) continue;
    const latency::BinRange r = latency::bin_range(bin);
    const double edge = bin > 0 ? r.low : r.high;
    const int power = static_cast<int>(std::lround(std::log10(std::fabs(edge))));
    out << (bin == -latency::kLastBin ? "" : ",") << "[" << (bin > 0 ? bin - 0.5 : bin + 0.5) << ",\""
        << human_duration(edge) << "\"," << power << "]";
  }
  out << "]}</script>";
}

void causality_summary(std::ostream& out, const html::CausalityCounts& c) {
  out << "<p id=\"causality\">Causality: on the traces' own clocks, <strong>" << c.total.before << "</strong> of "
      << c.messages << " message(s) were received before they were sent; after synchronization, <strong "
      << "id=\"after-count\">" << c.total.after << "</strong>";
  if (c.messages_between_islands > 0) {
    out << " of the " << c.messages - c.messages_between_islands << " on links within an island (the other "
        << c.messages_between_islands << " are on links between islands, with no common time base)";
  }
  if (c.total.after == 0) {
    out << ".</p>";
    return;
  }
  out << " (on " << c.links_after << " link(s); filter the links with <code>receive-before-send</code>).</p>";
  if (c.after_on_accurate_tree_links > 0) {
    out << "<p class=\"warn\" id=\"causality-on-trees\">" << c.after_on_accurate_tree_links
        << " of them on ACCURATE links of the trees, whose transforms come from these very messages: this should "
           "not happen; please report it.</p>";
  } else {
    out << "<p id=\"causality-on-trees\">None on the ACCURATE links of the trees. The others are on links off the "
           "trees, whose ends are synchronized through other links (whose bounds allow an error larger than these "
           "messages' latencies), or on APPROXIMATE links, whose messages contradict every line.</p>";
  }
}

void latency_row(std::ostream& out, const std::string& direction, const v1::LatencyDirection& d, bool synchronized) {
  const auto range = [](double lo, double hi) { return human_duration(lo) + " \u2026 " + human_duration(hi); };
  out << "<tr><th>" << direction << "</th><td class=\"num\">" << d.messages() << "</td><td class=\"num\">"
      << d.receive_before_send_before() << "</td><td class=\"num" << (d.receive_before_send_after() > 0 ? " warn" : "")
      << "\">" << (synchronized ? std::to_string(d.receive_before_send_after()) : "-") << "</td><td>"
      << (d.messages() > 0 ? range(d.min_before_ns(), d.max_before_ns()) : "-") << "</td><td>"
      << (d.messages() > 0 && synchronized ? range(d.min_after_ns(), d.max_after_ns()) : "-") << "</td></tr>";
}

void latency_figure(std::ostream& out, const std::string& id, const std::string& direction, uint64_t messages,
                    int first_bin, const html::LatencyBars& bars) {
  out << "<figure class=\"latency\"><figcaption>" << direction << ": " << messages << " message(s)";
  if (messages == 0) {
    out << ".</figcaption></figure>";
    return;
  }
  // The non-empty bins only, as (offset from first_bin, count) pairs: most
  // of a chart's bins are empty, and a thousand links' charts add up.
  const auto sparse = [&](const std::vector<uint64_t>& counts) {
    bool first = true;
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] == 0) continue;
      out << (first ? "" : ",") << i << "," << counts[i];
      first = false;
    }
  };
  out << ".</figcaption><div class=\"bars\" id=\"" << id << "\" data-bars='{\"f\":" << first_bin
      << ",\"n\":" << bars.before.size() << ",\"b\":[";
  sparse(bars.before);
  out << "],\"a\":[";
  sparse(bars.after);
  out << "]," << "\"s\":" << (bars.after.empty() ? 0 : 1) << "}'></div></figure>";
}

// A link's proof: receive-before-send counts and latency histograms, before
// and after synchronization, per direction.
void proof_block(std::ostream& out, int index, const v1::Link& l, const v1::LatencyProof& p, const std::string& a,
                 const std::string& b) {
  const std::string ab = escape(a) + " &rarr; " + escape(b), ba = escape(b) + " &rarr; " + escape(a);
  const html::ReceiveBeforeSend count = html::receive_before_send(p);
  out << "<div class=\"proof\" id=\"proof-" << index << "\"><h4>The proof: one-way latencies</h4><p id=\"proof-"
      << index << "-verdict\"" << (count.after > 0 ? " class=\"warn\"" : "") << ">";
  out << "Received before sent: " << count.before << " before synchronization, ";
  if (!p.synchronized()) {
    out << "and no \"after\": " << escape(a) << " and " << escape(b)
        << " are in different islands, with no common time base.";
  } else if (count.after == 0) {
    out << "<strong>none after</strong>.";
  } else if (!l.in_tree()) {
    out << "<strong>" << count.after << " after</strong>: the link is not in the tree; its ends are synchronized "
           "through other links, whose bounds allow an error larger than these messages' latencies.";
  } else if (l.quality() != v1::ACCURATE) {
    out << "<strong>" << count.after << " after</strong>: the link is " << quality_word(l.quality())
        << ", some of its messages contradict every line (" << l.contradictions() << " contradiction(s)).";
  } else {
    out << "<strong>" << count.after << " after, on an ACCURATE link of the tree</strong>: its transform comes from "
           "these very messages, so this should not happen; please report it.";
  }
  out << "</p><table class=\"proof-table\"><tr><th>direction</th><th>messages</th><th>received before sent: "
         "before</th><th>after</th><th>latency before (min \u2026 max)</th><th>after (min \u2026 max)</th></tr>";
  latency_row(out, ab, p.a_to_b(), p.synchronized());
  latency_row(out, ba, p.b_to_a(), p.synchronized());
  out << "</table>";
  const html::LatencyChart chart = html::latency_chart(p);
  latency_figure(out, "latency-" + std::to_string(index) + "-ab", ab, p.a_to_b().messages(), chart.first_bin, chart.a_to_b);
  latency_figure(out, "latency-" + std::to_string(index) + "-ba", ba, p.b_to_a().messages(), chart.first_bin, chart.b_to_a);
  out << "</div>";
}

void summary(std::ostream& out, const v1::Snapshot& s, const std::vector<html::SyncState>& sync, const DomainNames& name,
             const std::optional<html::CausalityCounts>& causality) {
  int synchronized = 0;
  double worst = 0;
  std::string worst_trace;
  for (int i = 0; i < s.traces_size(); ++i) {
    if (!sync[i].synchronized) continue;
    ++synchronized;
    for (const html::TracePiece& p : html::trace_pieces(s.traces(i))) {
      const double bound = std::max(p.uncertainty_first_ns, p.uncertainty_last_ns);
      if (!(bound <= worst)) worst = bound, worst_trace = s.traces(i).name();
    }
  }
  std::set<std::string> references;
  for (int i = 0; i < s.traces_size(); ++i) {
    if (sync[i].synchronized && s.traces(i).reference()) references.insert(name(s.traces(i).domain()));
  }
  std::map<v1::Quality, int> qualities;
  for (const v1::Link& l : s.links()) ++qualities[l.quality()];
  const bool failed = qualities.count(v1::FAIL) > 0;
  const bool bad = synchronized < s.traces_size() || failed || !s.complete() || s.problems_size() > 0;

  out << "<section id=\"summary\"><h2>Summary</h2><p class=\"verdict" << (bad ? " bad" : "") << "\" id=\"verdict\">";
  out << "<strong>" << synchronized << " of " << s.traces_size() << " trace(s) synchronized</strong>";
  if (!references.empty()) {
    out << " against reference ";
    bool first = true;
    for (const std::string& r : references) out << (first ? "" : ", ") << "<strong>" << escape(r) << "</strong>", first = false;
  }
  if (synchronized > 0) {
    out << ". Worst bound: <strong id=\"worst-bound\">" << escape(bound_text(worst)) << "</strong>";
    if (!worst_trace.empty() && worst > 0) out << " (trace " << escape(worst_trace) << ")";
    out << ": every synchronized timestamp is within this of the reference's clock";
  }
  out << ".</p>";
  if (!s.complete()) out << "<p class=\"warn\">The input was cut short or cancelled: this report covers what was read.</p>";
  out << "<p>" << s.links_size() << " link(s) between clock domains:";
  bool first = true;
  for (const auto& [q, count] : qualities) {
    out << (first ? " " : ", ") << count << " <span class=\"quality " << quality_class(q) << "\">" << quality_word(q)
        << "</span>";
    first = false;
  }
  out << "; " << s.messages() << " message(s) used.</p>";
  if (causality) causality_summary(out, *causality);
  if (synchronized < s.traces_size()) {
    out << "<h3 id=\"not-synchronized\">Not synchronized</h3><ul>";
    for (const int i : traces_for_people(s)) {
      if (sync[i].synchronized) continue;
      out << "<li><a href=\"#" << trace_id(i) << "\">" << escape(s.traces(i).name()) << "</a> ("
          << escape(s.traces(i).hostname()) << "): " << escape(sync[i].reason) << "</li>";
    }
    out << "</ul>";
  }
  if (failed) {
    out << "<h3 id=\"failed-links\">Links that FAIL</h3><ul>";
    for (const int i : links_for_people(s)) {
      const v1::Link& l = s.links(i);
      if (l.quality() != v1::FAIL) continue;
      out << "<li><a href=\"#" << link_id(i) << "\">" << escape(name(l.a()) + " \u2194 " + name(l.b())) << "</a>: "
          << quality_meaning(l.quality()) << ", " << l.contradictions() << " contradiction(s)</li>";
    }
    out << "</ul>";
  }
  if (s.problems_size() > 0) {
    out << "<h3 id=\"problems\">Problems with the input</h3><ul>";
    for (const v1::Problem& p : s.problems()) {
      out << "<li><code>" << escape(p.source()) << (p.line() != 0 ? ":" + std::to_string(p.line()) : "") << "</code>: "
          << escape(p.message()) << (p.skipped() ? " <strong>(skipped)</strong>" : "") << "</li>";
    }
    out << "</ul>";
  }
  out << "</section>";
}

void network_section(std::ostream& out, const v1::Snapshot& s, const DomainNames& name) {
  const bool large = s.traces_size() > 200;
  out << "<section id=\"network\"><h2>The network</h2><p>Each island's spanning tree, drawn from its reference. Every "
         "link is labelled with its quality and its bound, the uncertainty it adds to the traces beyond it. Click a "
         "link to see its messages and lines. Links outside the trees are listed under <a href=\"#links\">Links</a>.</p>"
      << "<details id=\"network-details\"" << (large ? "" : " open") << "><summary>The tree drawing ("
      << s.islands_size() << " island(s))" << (large ? ", folded because it is large" : "")
      << "</summary><div id=\"network-box\">";
  network_picture(out, s, name);
  out << "</div></details>";
  out << "<p>Qualities:</p><ul id=\"qualities\">";
  for (const v1::Quality q : {v1::ACCURATE, v1::APPROXIMATE, v1::INCOMPLETE, v1::ABSENT, v1::FAIL}) {
    out << "<li><span class=\"quality " << quality_class(q) << "\">" << quality_word(q) << "</span>: "
        << quality_meaning(q) << ".</li>";
  }
  out << "</ul></section>";
}

void traces_section(std::ostream& out, const v1::Snapshot& s, const std::vector<html::SyncState>& sync) {
  out << "<section id=\"traces\"><h2>Traces</h2><p>Each trace's transform onto its reference, t<sub>ref</sub> = slope "
         "&times; t + offset, in pieces; drift is (slope &minus; 1) in parts per million, shift is t<sub>ref</sub> "
         "&minus; t at the piece's start. The plot shows the bound over time: tight where messages are, growing "
         "across gaps and towards the ends.</p>";
  controls(out, "trace-list", "name, host or 'not synchronized'");
  out << "<div class=\"paged\" id=\"trace-list\">";
  for (const int i : traces_for_people(s)) {
    const v1::Trace& t = s.traces(i);
    const std::vector<html::TracePiece> pieces = html::trace_pieces(t);
    double worst = 0;
    for (const html::TracePiece& p : pieces) worst = std::max({worst, p.uncertainty_first_ns, p.uncertainty_last_ns});
    const std::string state = !sync[i].synchronized ? "not synchronized" : t.reference() ? "the reference" : bound_text(worst);
    out << "<details class=\"item\" id=\"" << trace_id(i) << "\" data-search=\""
        << escape(lowercase(t.name() + " " + t.hostname() + " " + t.domain() + " " + state)) << "\"><summary><strong>"
        << escape(t.name()) << "</strong> (" << escape(t.hostname()) << "), island " << t.island() << ": "
        << (sync[i].synchronized ? escape(state) : "<span class=\"warn\">not synchronized</span>") << ", "
        << pieces.size() << " piece(s)</summary>";
    if (!sync[i].synchronized) out << "<p class=\"warn\">Not synchronized: " << escape(sync[i].reason) << "</p>";
    out << "<p class=\"muted\">Clock domain " << escape(t.domain()) << (t.path().empty() ? "" : "; path " + escape(t.path()))
        << "; " << t.events() << " event(s).</p>";
    out << "<table class=\"pieces\"><tr><th>piece</th><th>from (own clock, ns)</th><th>length</th><th>drift (ppm)</th>"
           "<th>shift</th><th>bound at start</th><th>bound at end</th><th>slope (exact)</th><th>offset (exact, "
           "ns)</th></tr>";
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      const html::TracePiece& p = pieces[k];
      out << "<tr><td class=\"num\">" << k + 1 << "</td><td class=\"num\">" << p.first_ns << "</td><td>"
          << human_duration(static_cast<double>(p.last_ns - p.first_ns)) << "</td><td class=\"num\">"
          << number(p.drift_ppm, 3) << "</td><td>" << human_duration(p.shift_ns) << "</td><td>"
          << bound_text(p.uncertainty_first_ns) << "</td><td>" << bound_text(p.uncertainty_last_ns) << "</td><td><code>"
          << model::to_decimal(p.slope, 19) << "</code></td><td><code>" << model::to_fixed(p.offset, 3)
          << "</code></td></tr>";
    }
    out << "</table>";
    if (sync[i].synchronized) bound_plot(out, "bound-" + std::to_string(i), pieces);
    out << "</details>";
  }
  out << "</div></section>";
}

void links_section(std::ostream& out, const v1::Snapshot& s, const DomainNames& name, bool with_proof) {
  out << "<section id=\"links\"><h2>Links</h2><p>Each link: b &asymp; alpha &times; a + beta. The plot shows the "
         "messages kept on the hulls, relative to the link's first message (x) and to its estimate (y): a&rarr;b "
         "messages lie above the true line, b&rarr;a messages below it; L<sub>min</sub> and L<sub>max</sub> bound "
         "every line that separates them. It is zoomed to the messages; the whole span is one click away.";
  if (with_proof) {
    out << " Below it, the proof: the messages' one-way latencies (receive time minus send time: each on its own "
           "trace's clock before synchronization, both on the reference's time after), how many are negative "
           "(received before sent), and their histograms, before synchronization above the axis and after below, "
           "ten bins to a decade on both sides of 0 (hover a bar for its range).";
  }
  out << "</p>";
  out << "<p class=\"legend\"><span><svg width=\"14\" height=\"14\"><circle cx=\"7\" cy=\"7\" r=\"3.5\" "
         "fill=\"#1565c0\"/></svg> a&rarr;b message (filled circle)</span><span><svg width=\"14\" height=\"14\"><rect "
         "x=\"3.5\" y=\"3.5\" width=\"7\" height=\"7\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"1.5\"/></svg> "
         "b&rarr;a message (hollow square)</span><span><svg width=\"30\" height=\"8\"><line x1=\"0\" y1=\"4\" x2=\"30\" "
         "y2=\"4\" stroke=\"#222\" stroke-width=\"1.5\"/></svg> estimate (solid)</span><span><svg width=\"30\" "
         "height=\"8\"><line x1=\"0\" y1=\"4\" x2=\"30\" y2=\"4\" stroke=\"#6a1b9a\" stroke-width=\"1.5\" "
         "stroke-dasharray=\"6 3\"/></svg> L<sub>min</sub> (long dashes)</span><span><svg width=\"30\" "
         "height=\"8\"><line x1=\"0\" y1=\"4\" x2=\"30\" y2=\"4\" stroke=\"#ef6c00\" stroke-width=\"1.5\" "
         "stroke-dasharray=\"2 2\"/></svg> L<sub>max</sub> (dots)</span><span><svg width=\"14\" height=\"14\"><line "
         "x1=\"7\" y1=\"0\" x2=\"7\" y2=\"14\" stroke=\"#888\" stroke-dasharray=\"4 4\"/></svg> segment "
         "boundary</span></p>";
  controls(out, "link-list", "host, quality, 'tree' or 'receive-before-send'");
  out << "<div class=\"paged\" id=\"link-list\">";
  for (const int i : links_for_people(s)) {
    const v1::Link& l = s.links(i);
    const std::string a = name(l.a()), b = name(l.b());
    v1::LinkDetail detail;
    detail.ParseFromString(l.detail());
    const v1::LatencyProof* proof = detail.has_proof() ? &detail.proof() : nullptr;
    const html::ReceiveBeforeSend count = proof ? html::receive_before_send(*proof) : html::ReceiveBeforeSend{};
    out << "<details class=\"item\" id=\"" << link_id(i) << "\" data-search=\""
        << escape(lowercase(a + " " + b + " " + l.a() + " " + l.b() + " " + quality_word(l.quality()) +
                            (l.in_tree() ? " tree" : " not in tree") + (count.after > 0 ? " receive-before-send" : "")))
        << "\"><summary><strong>" << escape(a) << " &harr; " << escape(b) << "</strong>: <span class=\"quality "
        << quality_class(l.quality()) << "\">" << quality_word(l.quality()) << "</span>, "
        << (l.has_uncertainty_ns() ? bound_text(l.uncertainty_ns()) : "unbounded") << ", " << l.messages()
        << " message(s)" << (l.in_tree() ? ", in the tree" : ", not in the tree");
    if (proof) {
      out << "; received before sent: " << count.before << " before, "
          << (!proof->synchronized() ? "no common time base"
              : count.after > 0      ? "<span class=\"warn\">" + std::to_string(count.after) + " after</span>"
                                     : "0 after");
    }
    out << "</summary>";
    out << "<p>" << escape(quality_meaning(l.quality())) << ". alpha = <code>" << escape(l.alpha().exact())
        << "</code>, beta = <code>" << escape(l.beta().exact()) << "</code> ns; " << l.lower_messages() << " a&rarr;b and "
        << l.upper_messages() << " b&rarr;a message(s); hull " << l.lower_hull() << "/" << l.upper_hull() << " point(s); "
        << l.contradictions() << " contradiction(s); " << std::max<uint32_t>(l.segments(), 1) << " segment(s).</p>"
        << "<p class=\"evidence\">Evidence: " << escape(evidence_text(link_evidence_summary(l, s.options())))
        << ".</p>";
    const html::LinkPlot lp = html::link_plot(l, detail);
    if (lp.lower.empty() && lp.upper.empty() && lp.pieces.size() <= 1 && !detail.has_lmin()) {
      out << "<p class=\"muted\">No hull points to draw.</p>";
    } else {
      out << "<p class=\"muted\">Origin: " << lp.origin_ns << " ns on " << escape(a)
          << "'s clock. Zoomed to the messages: " << human_duration(lp.zoom_x.hi - lp.zoom_x.lo) << " of "
          << human_duration(lp.full_x.hi - lp.full_x.lo) << ".</p>";
      link_plot_svg(out, "plot-" + std::to_string(i) + "-zoom", lp, lp.zoom_x, a, b);
      out << "<details class=\"whole\"><summary>The whole span (" << human_duration(lp.full_x.hi - lp.full_x.lo)
          << ")</summary>";
      link_plot_svg(out, "plot-" + std::to_string(i) + "-whole", lp, lp.full_x, a, b);
      out << "</details>";
    }
    if (proof) proof_block(out, i, l, *proof, a, b);
    out << "</details>";
  }
  out << "</div></section>";
}

void signals_table(std::ostream& out, const v1::Snapshot& s);

void matching_section(std::ostream& out, const v1::Snapshot& s) {
  out << "<section id=\"matching\"><h2>Matching</h2>";
  if (!s.has_matching()) {
    out << "<p>No matching statistics.</p></section>";
    return;
  }
  const v1::MatchingStatistics& m = s.matching();
  if (m.sends() == 0 && m.receives() == 0 && m.matches() > 0) {
    out << "<p id=\"match-stream\">The messages came already matched (a match stream): nothing was paired here.</p>";
  }
  out << "<table>";
  const std::pair<const char*, uint64_t> rows[] = {
      {"sends", m.sends()},
      {"receives", m.receives()},
      {"matched messages", m.matches()},
      {"retransmissions", m.retransmissions()},
      {"duplicates", m.duplicates()},
      {"unmatched sends", m.unmatched_sends()},
      {"unmatched receives", m.unmatched_receives()},
      {"expired (no match within the horizon)", m.expired()},
      {"of unknown layout", m.unknown_layout()},
      {"within one clock domain (ignored)", m.same_domain()},
      {"not TCP", m.non_tcp()}};
  for (const auto& [what, count] : rows) out << "<tr><th>" << what << "</th><td class=\"num\">" << count << "</td></tr>";
  out << "</table>";
  if (s.matching_by_kind_size() > 0) {
    // Application message kinds (--messages): the same counts per kind, and
    // which links each kind's messages went to.
    out << "<h3>By message kind</h3><table id=\"matching-by-kind\"><tr><th>kind</th><th>sends</th><th>receives</th>"
           "<th>matched</th><th>retransmissions</th><th>duplicates</th><th>unmatched sends</th>"
           "<th>unmatched receives</th><th>expired</th><th>without a key</th><th>key too long</th><th>links</th></tr>";
    for (const v1::KindMatching& k : s.matching_by_kind()) {
      const v1::MatchingStatistics& km = k.matching();
      std::string links;
      for (const v1::Link& link : s.links()) {
        for (const v1::KindMessages& lk : link.message_kinds()) {
          if (lk.kind() != k.kind()) continue;
          links += (links.empty() ? "" : ", ") + link.a_hostname() + " \u2013 " + link.b_hostname() + " (" +
                   std::to_string(lk.matches()) + ")";
        }
      }
      out << "<tr><th>" << escape(k.name()) << "</th>";
      for (const uint64_t count : {km.sends(), km.receives(), km.matches(), km.retransmissions(), km.duplicates(),
                                   km.unmatched_sends(), km.unmatched_receives(), km.expired(), km.unknown_layout(),
                                   km.key_too_long()}) {
        out << "<td class=\"num\">" << count << "</td>";
      }
      out << "<td>" << escape(links.empty() ? "none" : links) << "</td></tr>";
    }
    out << "</table>";
  }
  signals_table(out, s);
  out << "</section>";
}

// Simultaneous signals (docs/signals.md): per link, the pairs each signal
// gave and the occurrences pairing left out.
void signals_table(std::ostream& out, const v1::Snapshot& s) {
  bool any = false;
  for (const v1::Link& link : s.links()) any = any || link.signals_size() > 0;
  if (!any) return;
  out << "<h3>Simultaneous signals</h3><table id=\"signals\"><tr><th>link</th><th>signal</th><th>pairs</th>"
         "<th>a without partner</th><th>b without partner</th><th>ambiguous</th><th>not aligned</th><th>cuts</th>"
         "<th>aligned by</th><th>pair jitter (ns)</th></tr>";
  for (const v1::Link& link : s.links()) {
    for (const v1::LinkSignal& g : link.signals()) {
      out << "<tr><th>" << escape(link.a_hostname() + " \u2013 " + link.b_hostname()) << "</th><td>" << escape(g.name())
          << "</td>";
      for (const uint64_t count : {g.pairs(), g.unpaired_a(), g.unpaired_b(), g.ambiguous(), g.not_aligned(), g.cuts()}) {
        out << "<td class=\"num\">" << count << "</td>";
      }
      out << "<td>" << escape(g.aligned_by()) << "</td><td class=\"num\">" << g.pair_jitter_ns() << "</td></tr>";
    }
  }
  out << "</table>";
}

void options_section(std::ostream& out, const v1::Snapshot& s) {
  const v1::EngineOptions& o = s.options();
  out << "<section id=\"options\"><h2>Options and version</h2><table>";
  const auto row = [&](const std::string& what, const std::string& value) {
    out << "<tr><th>" << what << "</th><td>" << escape(value) << "</td></tr>";
  };
  row("tracesync", TRACESYNC_VERSION);
  row("snapshot format", std::to_string(s.format_version()));
  row("algorithm", o.algorithm());
  row("clock model", o.clock_model().empty() ? "not recorded in this snapshot" : o.clock_model());
  if (o.has_clock_stability_ppm()) row("clock stability (ppm)", number(o.clock_stability_ppm(), 3));
  if (o.has_link_budget()) row("link budget (messages)", std::to_string(o.link_budget()));
  row("network", o.network());
  row("match key", o.match_key());
  row("match horizon", human_duration(static_cast<double>(o.match_horizon_ns())));
  for (const v1::MessageKind& k : o.message_kinds()) row("messages '" + k.name() + "'", k.spec());
  if (o.window_ns() != 0) row("window", human_duration(static_cast<double>(o.window_ns())));
  if (o.confidence() != 0) row("confidence", number(o.confidence(), 3));
  row("jobs", std::to_string(o.jobs()));
  std::string forced;
  for (const std::string& r : o.forced_references()) forced += (forced.empty() ? "" : ", ") + r;
  row("forced references", forced.empty() ? "none" : forced);
  for (const auto& [trace, domain] : o.domain_overrides()) row("domain of " + trace, domain);
  row("reading", o.reading_program().empty() ? "in the engine's process" + (o.in_process_reason().empty() ? "" : " (" + o.in_process_reason() + ")")
                                             : "by " + o.reading_program());
  out << "</table></section>";
}

}  // namespace

std::string to_html(const v1::Snapshot& s) {
  std::ostringstream out;
  const DomainNames name(s);
  const std::vector<html::SyncState> sync = html::sync_states(s);
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
         "<title>tracesync report: "
      << s.traces_size() << " trace(s)</title><style>" << kStyle << "</style></head><body>\n";
  out << "<h1>tracesync report</h1><p class=\"muted\">" << s.traces_size() << " trace(s), " << s.links_size()
      << " link(s), " << s.islands_size() << " island(s). Sections: <a href=\"#summary\">summary</a>, <a "
         "href=\"#network\">network</a>, <a href=\"#traces\">traces</a>, <a href=\"#links\">links</a>, <a "
         "href=\"#matching\">matching</a>, <a href=\"#options\">options</a>.</p>\n";
  const std::optional<html::CausalityCounts> causality = html::causality_counts(s);
  summary(out, s, sync, name, causality);
  out << "\n";
  network_section(out, s, name);
  out << "\n";
  traces_section(out, s, sync);
  out << "\n";
  links_section(out, s, name, causality.has_value());
  out << "\n";
  matching_section(out, s);
  options_section(out, s);
  out << "\n";
  if (causality) latency_bins_table(out);
  out << "<script>" << kScript << "</script></body></html>\n";
  return out.str();
}

}  // namespace tracesync::snapshot
