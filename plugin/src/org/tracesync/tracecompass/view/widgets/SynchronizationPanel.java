// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.custom.StackLayout;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.TabItem;
import org.tracesync.proto.Link;
import org.tracesync.proto.Snapshot;
import org.tracesync.tracecompass.snapshot.DomainLabels;
import org.tracesync.tracecompass.view.model.LinkPlotModel;
import org.tracesync.tracecompass.view.model.LinkTableModel;
import org.tracesync.tracecompass.view.model.SnapshotSummary;
import org.tracesync.tracecompass.view.model.SpanningTreeLayout;
import org.tracesync.tracecompass.view.model.TraceBoundModel;
import org.tracesync.tracecompass.view.model.TraceTableModel;

/**
 * The body of the Trace Synchronization view: a summary line, the link and trace tables (one tab each), and below
 * them the spanning tree beside a plot. Selecting a link plots its messages and hulls and highlights it in the tree;
 * selecting a trace plots its bound over time.
 */
public final class SynchronizationPanel extends Composite {
  private final Label summary;
  private final SnapshotTable<LinkTableModel.Row> table;
  private final SnapshotTable<TraceTableModel.Row> traceTable;
  private final TabFolder tables;
  private final StackLayout pictureStack = new StackLayout();
  private final Composite linkPicture;
  private final TraceBoundCanvas traceBound;
  private final SpanningTreeCanvas tree;
  private final LinkPlotCanvas plot;
  private final Button wholeSpan;
  private final SashForm rows;
  private Snapshot snapshot = Snapshot.getDefaultInstance();
  private int shownLink = -1;

  public SynchronizationPanel(Composite parent) {
    super(parent, SWT.NONE);
    GridLayout layout = new GridLayout(1, false);
    layout.marginWidth = 0;
    layout.marginHeight = 0;
    setLayout(layout);
    // Wrapped at the view's width: a live caption names each source's problem, and was cut in the middle of one.
    summary = new Label(this, SWT.WRAP);
    summary.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
    SashForm rows = new SashForm(this, SWT.VERTICAL);
    rows.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
    tables = new TabFolder(rows, SWT.TOP);
    TabItem linksTab = new TabItem(tables, SWT.NONE);
    linksTab.setText("Links");
    table = new SnapshotTable<>(tables, LinkTableModel.COLUMNS, LinkTableModel.Row::index);
    linksTab.setControl(table.table());
    TabItem tracesTab = new TabItem(tables, SWT.NONE);
    tracesTab.setText("Traces");
    traceTable = new SnapshotTable<>(tables, TraceTableModel.COLUMNS, TraceTableModel.Row::index);
    tracesTab.setControl(traceTable.table());
    SashForm pictures = new SashForm(rows, SWT.HORIZONTAL);
    tree = new SpanningTreeCanvas(pictures);
    Composite stack = new Composite(pictures, SWT.NONE);
    stack.setLayout(pictureStack);
    Composite plotArea = new Composite(stack, SWT.NONE);
    linkPicture = plotArea;
    traceBound = new TraceBoundCanvas(stack);
    pictureStack.topControl = linkPicture;
    GridLayout plotLayout = new GridLayout(1, false);
    plotLayout.marginWidth = 0;
    plotLayout.marginHeight = 0;
    plotArea.setLayout(plotLayout);
    wholeSpan = new Button(plotArea, SWT.CHECK);
    wholeSpan.setText("Whole span (unchecked: zoom to the messages)");
    wholeSpan.setLayoutData(new GridData(SWT.BEGINNING, SWT.CENTER, false, false));
    wholeSpan.addListener(SWT.Selection, event -> showLink(shownLink));
    plot = new LinkPlotCanvas(plotArea);
    plot.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
    // Where the plot cannot be drawn, the check box would only take the room its hint needs.
    plotArea.addListener(SWT.Resize, event -> fitWholeSpanBox());
    pictures.setWeights(2, 3);
    rows.setWeights(1, 2);
    this.rows = rows;
    // A fixed third of a short view cut the table's one row in half: give the table room for its rows first.
    rows.addListener(SWT.Resize, event -> fitTable());
    table.onSelection(this::showLink);
    traceTable.onSelection(this::showTrace);
    tables.addListener(SWT.Selection, event -> showPicture(tables.getSelectionIndex() == 1 ? traceBound : linkPicture));
    clear("No synchronization yet: run Synchronize Traces (tracesync) on an experiment.");
  }

  /** Shows a synchronization result; {@code caption} says what it is (the experiment, and whether it was cached). */
  public void show(Snapshot result, String caption) {
    checkWidget();
    snapshot = result;
    summary.setText(caption + " \u2014 " + SnapshotSummary.of(result));
    table.setRows(LinkTableModel.of(result).rows());
    traceTable.setRows(TraceTableModel.of(result).rows());
    fitTable();
    tree.setLayout(SpanningTreeLayout.of(result));
    int first = firstTreeLink(result);
    table.select(first);  // plots it through the selection listener
    if (first < 0) showLink(-1);
    layout(true, true);
  }

  /** Empties the panel, with a line saying why. */
  public void clear(String message) {
    checkWidget();
    snapshot = Snapshot.getDefaultInstance();
    summary.setText(message);
    table.setRows(LinkTableModel.empty().rows());
    traceTable.setRows(TraceTableModel.empty().rows());
    traceBound.setModel(TraceBoundModel.empty(""));
    tree.setLayout(SpanningTreeLayout.empty());
    showLink(-1);
    layout(true, true);  // the line may wrap to another height
  }

  /** Selects (and plots) the link at this index of the snapshot. */
  public void selectLink(int linkIndex) {
    table.select(linkIndex);
  }

  public Snapshot snapshot() {
    return snapshot;
  }

  public SnapshotTable<LinkTableModel.Row> table() {
    return table;
  }

  public SnapshotTable<TraceTableModel.Row> traceTable() {
    return traceTable;
  }

  public TraceBoundCanvas traceBound() {
    return traceBound;
  }

  /** Shows the tab of links (0) or of traces (1), and the picture that goes with it. */
  public void showTab(int index) {
    checkWidget();
    tables.setSelection(index);
    showPicture(index == 1 ? traceBound : linkPicture);
  }

  /** Selects (and plots the bound of) the trace at this index of the snapshot. */
  public void selectTrace(int traceIndex) {
    traceTable.select(traceIndex);
  }

  public SpanningTreeCanvas tree() {
    return tree;
  }

  public LinkPlotCanvas plot() {
    return plot;
  }

  public String summaryText() {
    return summary.getText();
  }

  /** The summary line's label, which wraps its text at the panel's width. */
  public Label summary() {
    return summary;
  }

  /** Most rows the table is sized for before it scrolls. */
  static final int TABLE_ROWS = 4;

  /**
   * Sizes the tables for their header and a whole number of rows: all of them, up to {@link #TABLE_ROWS}, with a
   * spare row where there is room (the trims are estimates); fewer where that would take more than two thirds of the
   * panel; and at least one, however short the panel is. A row cut in half hid the result at the view's default
   * height, and pictures in so little room could not be read anyway (they say so). (GTK's trims are estimates: a
   * table that scrolls may show a few pixels of its next row.)
   */
  private void fitTable() {
    int total = rows.getClientArea().height - rows.getSashWidth();
    if (total <= 0) return;
    int items = Math.max(table.table().getItemCount(), traceTable.table().getItemCount());
    int shown = Math.max(1, Math.min(TABLE_ROWS, items));
    int most = total * 2 / 3;
    int tableHeight;
    if (tablesHeight(shown + 1) <= most) {
      tableHeight = Math.max(tablesHeight(shown + 1), total / 4);
    } else {
      int whole = shown;
      while (whole > 1 && tablesHeight(whole) > most) whole--;
      tableHeight = Math.min(tablesHeight(whole), total);
    }
    rows.setWeights(tableHeight, total - tableHeight);
  }

  /** The height the tab folder needs to show the tables' header and {@code rowCount} whole rows. */
  private int tablesHeight(int rowCount) {
    org.eclipse.swt.widgets.Table t = table.table();
    org.eclipse.swt.widgets.ScrollBar bar = t.getHorizontalBar();
    int inner = t.computeTrim(0, 0, 0, t.getHeaderHeight() + rowCount * t.getItemHeight()).height
        + (bar != null && bar.getVisible() ? bar.getSize().y : 0);
    return tables.computeTrim(0, 0, 0, inner).height;
  }

  /** Shows the whole-span check box only where the plot below it has the room to be drawn. */
  private void fitWholeSpanBox() {
    int boxHeight = wholeSpan.computeSize(SWT.DEFAULT, SWT.DEFAULT).y;
    boolean room = linkPicture.getClientArea().height - boxHeight >= LinkPlotPainter.MIN_HEIGHT;
    GridData data = (GridData) wholeSpan.getLayoutData();
    if (data.exclude == !room) return;
    data.exclude = !room;
    wholeSpan.setVisible(room);
    linkPicture.layout();
  }

  /** Whether the whole-span check box is shown (it is not where the plot has no room). */
  public boolean wholeSpanShown() {
    return wholeSpan.getVisible();
  }

  /** The height the table gets, in pixels. */
  public int tableHeight() {
    return table.table().getSize().y;
  }

  /** Shows the selected link's whole span, or zooms to its messages (the default). */
  public void setWholeSpan(boolean whole) {
    checkWidget();
    wholeSpan.setSelection(whole);
    showLink(shownLink);
  }

  private void showLink(int linkIndex) {
    shownLink = linkIndex;
    tree.setSelectedLink(linkIndex);
    if (linkIndex < 0 || linkIndex >= snapshot.getLinksCount()) {
      plot.setModel(LinkPlotModel.empty(""));
      return;
    }
    Link link = snapshot.getLinks(linkIndex);
    DomainLabels labels = DomainLabels.of(snapshot);
    LinkPlotModel.Range range = wholeSpan.getSelection() ? LinkPlotModel.Range.SPAN : LinkPlotModel.Range.MESSAGES;
    plot.setModel(LinkPlotModel.of(link, labels.shortLabel(link.getA()) + " \u2192 " + labels.shortLabel(link.getB()),
        range));
  }

  private void showTrace(int traceIndex) {
    if (traceIndex < 0 || traceIndex >= snapshot.getTracesCount()) {
      traceBound.setModel(TraceBoundModel.empty(""));
      return;
    }
    traceBound.setModel(TraceBoundModel.of(snapshot.getTraces(traceIndex)));
    showPicture(traceBound);
  }

  private void showPicture(org.eclipse.swt.widgets.Control picture) {
    if (pictureStack.topControl == picture) return;
    pictureStack.topControl = picture;
    picture.getParent().layout();
  }

  private static int firstTreeLink(Snapshot result) {
    for (int i = 0; i < result.getLinksCount(); i++) {
      if (result.getLinks(i).getInTree()) return i;
    }
    return result.getLinksCount() > 0 ? 0 : -1;
  }
}
