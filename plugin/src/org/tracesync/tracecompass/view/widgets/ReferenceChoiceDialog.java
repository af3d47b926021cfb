// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import java.util.List;
import org.eclipse.jface.dialogs.Dialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.tracesync.tracecompass.sync.ReferenceChoice;

/**
 * Asks which clock to synchronize on: the automatic choice, or the clock of one of the experiment's traces. After OK,
 * {@link #choice()} tells which.
 */
public final class ReferenceChoiceDialog extends Dialog {
  /** A trace the user may pick: its name in the experiment and its location on disk. */
  public record TraceEntry(String name, String path) {}

  private final String experimentName;
  private final List<TraceEntry> traces;
  private Button automatic;
  private Button chosen;
  private Combo traceCombo;
  private ReferenceChoice choice = ReferenceChoice.automatic();

  public ReferenceChoiceDialog(Shell parent, String experimentName, List<TraceEntry> traces) {
    super(parent);
    this.experimentName = experimentName;
    this.traces = List.copyOf(traces);
  }

  @Override
  protected void configureShell(Shell shell) {
    super.configureShell(shell);
    shell.setText("Synchronize Traces (tracesync)");
  }

  @Override
  protected Control createDialogArea(Composite parent) {
    Composite area = (Composite) super.createDialogArea(parent);
    area.setLayout(new GridLayout(2, false));
    Label intro = new Label(area, SWT.WRAP);
    intro.setText("Put the traces of '" + experimentName + "' on one time base.\nReference clock:");
    intro.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1));
    automatic = new Button(area, SWT.RADIO);
    automatic.setText("Automatic (the most central clock of each group of linked hosts)");
    automatic.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1));
    chosen = new Button(area, SWT.RADIO);
    chosen.setText("The clock of trace:");
    traceCombo = new Combo(area, SWT.READ_ONLY | SWT.DROP_DOWN);
    traceCombo.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
    for (TraceEntry trace : traces) traceCombo.add(trace.name());
    if (!traces.isEmpty()) traceCombo.select(0);
    automatic.setSelection(true);
    traceCombo.setEnabled(false);
    chosen.addListener(SWT.Selection, event -> traceCombo.setEnabled(chosen.getSelection()));
    chosen.setEnabled(!traces.isEmpty());
    return area;
  }

  @Override
  protected void okPressed() {
    choice = readChoice();
    super.okPressed();
  }

  /** The user's choice; automatic until OK is pressed on another. */
  public ReferenceChoice choice() {
    return choice;
  }

  /** Selects a choice in the open dialog, as a click would (for tests and for remembering the last choice). */
  public void preselect(ReferenceChoice preset) {
    int index = preset.tracePath().map(this::indexOf).orElse(-1);
    boolean pickTrace = index >= 0;
    automatic.setSelection(!pickTrace);
    chosen.setSelection(pickTrace);
    traceCombo.setEnabled(pickTrace);
    if (pickTrace) traceCombo.select(index);
  }

  private ReferenceChoice readChoice() {
    int index = traceCombo.getSelectionIndex();
    if (!chosen.getSelection() || index < 0) return ReferenceChoice.automatic();
    TraceEntry trace = traces.get(index);
    return ReferenceChoice.trace(trace.name(), trace.path());
  }

  private int indexOf(String path) {
    for (int i = 0; i < traces.size(); i++) {
      if (traces.get(i).path().equals(path)) return i;
    }
    return -1;
  }
}
