package org.tracesync.tracecompass.view.widgets;

import java.util.function.IntConsumer;
import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.ColumnLabelProvider;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.jface.viewers.TableViewerColumn;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Table;
import org.tracesync.tracecompass.view.model.LinkTableModel;
import org.tracesync.tracecompass.view.model.LinkTableModel.Column;
import org.tracesync.tracecompass.view.model.LinkTableModel.Row;

/** The link table: a JFace TableViewer over a {@link LinkTableModel}, telling which link the user selects. */
public final class LinkTable {
  private final TableViewer viewer;
  private LinkTableModel model = LinkTableModel.empty();

  public LinkTable(Composite parent) {
    viewer = new TableViewer(parent, SWT.SINGLE | SWT.FULL_SELECTION | SWT.BORDER | SWT.H_SCROLL | SWT.V_SCROLL);
    viewer.setContentProvider(ArrayContentProvider.getInstance());
    for (Column column : LinkTableModel.COLUMNS) {
      TableViewerColumn viewerColumn = new TableViewerColumn(viewer, SWT.NONE);
      viewerColumn.getColumn().setText(column.header());
      viewerColumn.getColumn().setWidth(column.preferredWidth());
      viewerColumn.getColumn().setAlignment(column.numeric() ? SWT.RIGHT : SWT.LEFT);
      viewerColumn.setLabelProvider(new ColumnLabelProvider() {
        @Override
        public String getText(Object element) {
          return column.text().apply((Row) element);
        }
      });
    }
    Table table = viewer.getTable();
    table.setHeaderVisible(true);
    table.setLinesVisible(true);
  }

  public void setModel(LinkTableModel model) {
    this.model = model;
    viewer.setInput(model.rows());
  }

  public LinkTableModel model() {
    return model;
  }

  /** Selects the link at this index of the snapshot; the selection listeners hear it as a user selection. */
  public void select(int linkIndex) {
    if (linkIndex < 0 || linkIndex >= model.rows().size()) {
      viewer.setSelection(StructuredSelection.EMPTY);
    } else {
      viewer.setSelection(new StructuredSelection(model.rows().get(linkIndex)), true);
    }
  }

  /** {@code listener} hears the snapshot index of each link the user selects, or -1 when none is. */
  public void onSelection(IntConsumer listener) {
    viewer.addSelectionChangedListener(event -> {
      Object first = ((IStructuredSelection) event.getSelection()).getFirstElement();
      listener.accept(first instanceof Row row ? row.index() : -1);
    });
  }

  public Table table() {
    return viewer.getTable();
  }
}
