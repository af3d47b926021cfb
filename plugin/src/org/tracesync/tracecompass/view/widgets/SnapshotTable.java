// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.ToIntFunction;
import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.ColumnLabelProvider;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.jface.viewers.TableViewerColumn;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Table;
import org.tracesync.tracecompass.view.model.TableColumn;

/**
 * A table of a snapshot: a JFace TableViewer over rows of type R (links or traces) in the given columns, telling which
 * row the user selects by its index in the snapshot.
 */
public final class SnapshotTable<R> {
  private final TableViewer viewer;
  private final ToIntFunction<R> indexOf;
  private List<R> rows = List.of();

  public SnapshotTable(Composite parent, List<TableColumn<R>> columns, ToIntFunction<R> indexOf) {
    this.indexOf = indexOf;
    viewer = new TableViewer(parent, SWT.SINGLE | SWT.FULL_SELECTION | SWT.BORDER | SWT.H_SCROLL | SWT.V_SCROLL);
    viewer.setContentProvider(ArrayContentProvider.getInstance());
    for (TableColumn<R> column : columns) {
      TableViewerColumn viewerColumn = new TableViewerColumn(viewer, SWT.NONE);
      viewerColumn.getColumn().setText(column.header());
      viewerColumn.getColumn().setWidth(column.preferredWidth());
      viewerColumn.getColumn().setAlignment(column.numeric() ? SWT.RIGHT : SWT.LEFT);
      viewerColumn.setLabelProvider(new ColumnLabelProvider() {
        @Override
        @SuppressWarnings("unchecked")
        public String getText(Object element) {
          return column.text().apply((R) element);
        }
      });
    }
    Table table = viewer.getTable();
    table.setHeaderVisible(true);
    table.setLinesVisible(true);
  }

  public void setRows(List<R> rows) {
    this.rows = rows;
    viewer.setInput(rows);
  }

  /** Selects the row at this position; the selection listeners hear it as a user selection. */
  public void select(int position) {
    if (position < 0 || position >= rows.size()) {
      viewer.setSelection(StructuredSelection.EMPTY);
    } else {
      viewer.setSelection(new StructuredSelection(rows.get(position)), true);
    }
  }

  /** {@code listener} hears the snapshot index of each row the user selects, or -1 when none is. */
  @SuppressWarnings("unchecked")
  public void onSelection(IntConsumer listener) {
    viewer.addSelectionChangedListener(event -> {
      Object first = ((IStructuredSelection) event.getSelection()).getFirstElement();
      listener.accept(first == null ? -1 : indexOf.applyAsInt((R) first));
    });
  }

  public Table table() {
    return viewer.getTable();
  }
}
