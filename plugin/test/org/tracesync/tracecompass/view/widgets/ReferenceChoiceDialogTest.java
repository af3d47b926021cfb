// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.widgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jface.window.Window;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Shell;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tracesync.tracecompass.sync.ReferenceChoice;
import org.tracesync.tracecompass.view.widgets.ReferenceChoiceDialog.TraceEntry;

/** Drives the reference dialog as a user would: radio buttons, the trace list, OK and Cancel. */
@Tag("gui")
class ReferenceChoiceDialogTest {
  private static Display display;
  private static final List<TraceEntry> TRACES = List.of(new TraceEntry("scp_src", "/traces/scp_src"),
      new TraceEntry("scp_dest", "/traces/scp_dest"));

  @BeforeAll
  static void openDisplay() {
    display = Display.getDefault();
  }

  @AfterAll
  static void closeDisplay() {
    display.dispose();
  }

  private static ReferenceChoiceDialog open() {
    ReferenceChoiceDialog dialog = new ReferenceChoiceDialog(new Shell(display), "scp", TRACES);
    dialog.setBlockOnOpen(false);
    dialog.open();
    return dialog;
  }

  @Test
  void automaticIsTheDefault() {
    ReferenceChoiceDialog dialog = open();
    click(button(dialog.getShell(), "OK"));
    assertEquals(Window.OK, dialog.getReturnCode());
    assertTrue(dialog.choice().isAutomatic());
  }

  @Test
  void pickingATraceMakesItsPathTheReference() {
    ReferenceChoiceDialog dialog = open();
    Combo combo = all(dialog.getShell(), Combo.class).get(0);
    assertFalse(combo.isEnabled(), "the trace list waits for its radio button");
    assertEquals(List.of("scp_src", "scp_dest"), List.of(combo.getItems()));
    Button chosen = button(dialog.getShell(), "The clock of trace:");
    Button automatic = all(dialog.getShell(), Button.class).stream()
        .filter(b -> b.getText().startsWith("Automatic")).findFirst().orElseThrow();
    automatic.setSelection(false);
    chosen.setSelection(true);
    click(chosen);
    assertTrue(combo.isEnabled());
    combo.select(1);
    click(button(dialog.getShell(), "OK"));
    assertEquals(ReferenceChoice.trace("scp_dest", "/traces/scp_dest"), dialog.choice());
    assertEquals("scp_dest", dialog.choice().traceName().orElseThrow());
  }

  @Test
  void preselectionRestoresALastChoiceAndCancelKeepsAutomatic() {
    ReferenceChoiceDialog dialog = open();
    dialog.preselect(ReferenceChoice.trace("scp_src", "/traces/scp_src"));
    assertTrue(button(dialog.getShell(), "The clock of trace:").getSelection());
    click(button(dialog.getShell(), "Cancel"));
    assertEquals(Window.CANCEL, dialog.getReturnCode());
    assertTrue(dialog.choice().isAutomatic());
  }

  private static void click(Button button) {
    button.notifyListeners(SWT.Selection, new Event());
  }

  private static Button button(Shell shell, String text) {
    return all(shell, Button.class).stream().filter(b -> b.getText().replace("&", "").equals(text)).findFirst()
        .orElseThrow(() -> new AssertionError("no button '" + text + "'"));
  }

  private static <T extends Control> List<T> all(Composite parent, Class<T> type) {
    List<T> found = new ArrayList<>();
    for (Control child : parent.getChildren()) {
      if (type.isInstance(child)) found.add(type.cast(child));
      if (child instanceof Composite composite) found.addAll(all(composite, type));
    }
    return found;
  }
}
