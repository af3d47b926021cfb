// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.export;

/**
 * What an exit code of `tracesync apply` means for the user (docs/exit-codes.md): whether copies were written, how
 * serious it is, and in words.
 */
public record ApplyExit(int code, Severity severity, boolean copiesWritten, String message) {
  public enum Severity { OK, WARNING, ERROR, CANCELLED }

  public static ApplyExit of(int code) {
    return switch (code) {
      case 0 -> new ApplyExit(code, Severity.OK, true, "every trace was synchronized and copied");
      case 3 -> new ApplyExit(code, Severity.WARNING, true,
          "a trace could not be read, or only in part: it has no copy, the others were synchronized and copied");
      case 4 -> new ApplyExit(code, Severity.WARNING, true,
          "a trace is not synchronized with the rest: it has no copy, the others were copied");
      case 1 -> new ApplyExit(code, Severity.ERROR, false,
          "tracesync failed (internal error, out of memory, or the copies could not be written): nothing was written");
      case 2 -> new ApplyExit(code, Severity.ERROR, false,
          "bad input, or no trace could be read (or the output folder was refused): nothing was written");
      case 130 -> new ApplyExit(code, Severity.CANCELLED, false, "interrupted: nothing was written");
      default -> code > 128 && code < 160
          ? new ApplyExit(code, Severity.CANCELLED, false, "stopped by signal " + (code - 128) + ": nothing was written")
          : new ApplyExit(code, Severity.ERROR, false, "tracesync ended with unknown exit code " + code);
    };
  }
}
