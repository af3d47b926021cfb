// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.ui;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.core.resources.IFolder;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.tracecompass.tmf.core.TmfCommonConstants;
import org.eclipse.tracecompass.tmf.core.project.model.TmfTraceType;
import org.eclipse.tracecompass.tmf.core.project.model.TraceTypeHelper;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfExperimentElement;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfExperimentFolder;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfProjectElement;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfTraceElement;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfTraceFolder;
import org.eclipse.tracecompass.tmf.ui.project.model.TmfTraceTypeUIUtils;
import org.tracesync.tracecompass.core.Log;
import org.tracesync.tracecompass.export.CopiesExperiment;
import org.tracesync.tracecompass.export.ExportManifest;

/**
 * The copies of an export as a new experiment of the same project: links to the copies in a new folder of Traces,
 * each with its original's trace type (an LTTng kernel trace stays one), and an experiment of the original's type
 * holding them. The copies are already synchronized: they get no transform.
 */
final class OpenCopies {
  private OpenCopies() {}

  static CopiesExperiment plan(TmfExperimentElement experiment, Map<String, String> originals,
      ExportManifest manifest) {
    TmfProjectElement project = experiment.getProject();
    IFolder traces = project.getTracesFolder().getResource();
    TmfExperimentFolder experiments = project.getExperimentsFolder();
    return CopiesExperiment.plan(experiment.getName(), originals, manifest, name -> traces.findMember(name) != null,
        name -> experiments != null && experiments.getResource().findMember(name) != null);
  }

  /** In the UI thread: makes the links and the experiment, and returns the experiment's element. */
  static TmfExperimentElement create(TmfExperimentElement source, CopiesExperiment plan) throws CoreException {
    TmfProjectElement project = source.getProject();
    TmfTraceFolder tracesFolder = project.getTracesFolder();
    TmfExperimentFolder experiments = project.getExperimentsFolder();
    if (experiments == null) throw failure("the project has no Experiments folder");
    IFolder folder = tracesFolder.getResource().getFolder(plan.folder());
    folder.create(false, true, null);
    List<IResource> links = new ArrayList<>();
    for (CopiesExperiment.Link link : plan.links()) {
      IFolder linked = folder.getFolder(org.eclipse.core.runtime.Path.fromPortableString(link.name()));
      createParents(linked);
      Path copy = link.copy();
      linked.createLink(org.eclipse.core.runtime.Path.fromOSString(copy.toString()), IResource.NONE, null);
      linked.setPersistentProperty(TmfCommonConstants.SOURCE_LOCATION, copy.toUri().toString());
      TraceTypeHelper type = TmfTraceType.getTraceType(traceTypeOf(source, link.original()));
      if (type != null) {
        TmfTraceTypeUIUtils.setTraceType(linked, type);
      } else {
        Log.warning(link.original() + " has no trace type; its copy " + copy + " is linked without one");
      }
      links.add(linked);
    }
    IFolder experimentFolder = experiments.getResource().getFolder(plan.experiment());
    experimentFolder.create(false, true, null);
    TraceTypeHelper experimentType = TmfTraceType.getTraceType(source.getTraceType());
    if (experimentType == null) experimentType = TmfTraceType.getTraceType(TmfTraceType.DEFAULT_EXPERIMENT_TYPE);
    TmfTraceTypeUIUtils.setTraceType(experimentFolder, experimentType);
    TmfExperimentElement created = experiments.getExperiment(experimentFolder);
    if (created == null) throw failure("the new experiment " + plan.experiment() + " did not appear in the project");
    for (TmfTraceElement trace : tracesFolder.getTraceElements(links)) created.addTrace(trace);
    return created;
  }

  private static String traceTypeOf(TmfExperimentElement source, String name) {
    for (TmfTraceElement trace : source.getTraces()) {
      if (trace.getElementPath().equals(name)) return trace.getElementUnderTraceFolder().getTraceType();
    }
    return null;
  }

  private static void createParents(IFolder folder) throws CoreException {
    if (folder.getParent() instanceof IFolder parent && !parent.exists()) {
      createParents(parent);
      parent.create(false, true, null);
    }
  }

  private static CoreException failure(String message) {
    return new CoreException(new Status(IStatus.ERROR, Log.PLUGIN_ID, message));
  }
}
