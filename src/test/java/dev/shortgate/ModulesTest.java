package dev.shortgate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.core.NamedInterface;
import org.springframework.modulith.docs.Documenter;
import org.springframework.modulith.docs.Documenter.CanvasOptions;
import org.springframework.modulith.docs.Documenter.DiagramOptions;
import org.springframework.modulith.docs.Documenter.Options;

/**
 * The application modules (design.md, "Packages"): each package under {@code dev.shortgate} is one, its
 * dependencies point one way, and it uses only what another module offers in a named interface. The module
 * documentation under {@code docs/modules/} is written from the same model.
 */
class ModulesTest {

    private static final Path DOCS = Path.of("docs/modules");

    private static final ApplicationModules MODULES = ApplicationModules.of(ShortgateApplication.class);

    @Test
    void modulesHaveNoCyclesAndReachOnlyIntoNamedInterfaces() {
        MODULES.verify();
    }

    @Test
    void everyModuleDeclaresWhatItMayUse() throws ClassNotFoundException {
        for (ApplicationModule module : MODULES) {
            String name = module.getBasePackage().getName();
            org.springframework.modulith.ApplicationModule declared = Class.forName(name + ".package-info")
                    .getAnnotation(org.springframework.modulith.ApplicationModule.class);
            assertThat(declared)
                    .as("@ApplicationModule(allowedDependencies = ...) on %s", name)
                    .isNotNull();
            assertThat(declared.allowedDependencies())
                    .as("allowed dependencies of %s", name)
                    .doesNotContain(org.springframework.modulith.ApplicationModule.OPEN_TOKEN);
        }
    }

    @Test
    void writesTheModuleDocumentation() throws IOException {
        // The generated files are replaced, not added to: a module that is gone leaves no diagram behind, and
        // anything else kept in the folder (its README) stays.
        if (Files.isDirectory(DOCS)) {
            try (Stream<Path> files = Files.list(DOCS)) {
                for (Path file : files.filter(ModulesTest::generated).toList()) {
                    Files.delete(file);
                }
            }
        }
        new Documenter(
                        MODULES,
                        Options.defaults().withOutputFolder(DOCS.toString()).withoutClean())
                .writeModulesAsPlantUml(DiagramOptions.defaults())
                .writeIndividualModulesAsPlantUml(DiagramOptions.defaults())
                .writeModuleCanvases(CanvasOptions.defaults().revealInternals())
                .writeAggregatingDocument(
                        DiagramOptions.defaults(), CanvasOptions.defaults().revealInternals());
        Files.writeString(DOCS.resolve("README.md"), overview());
        try (Stream<Path> files = Files.list(DOCS)) {
            for (Path diagram :
                    files.filter(f -> f.toString().endsWith(".puml")).toList()) {
                sortRelations(diagram);
            }
        }
    }

    /**
     * The Documenter writes a diagram's relations in the order of a hash set, which changes from run to run; sorted,
     * the same modules give the same file, so a re-run leaves {@code docs/modules/} as it was.
     */
    private static void sortRelations(Path diagram) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(diagram));
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("Rel(")) {
                at.add(i);
            }
        }
        List<String> relations = at.stream().map(lines::get).sorted().toList();
        for (int i = 0; i < at.size(); i++) {
            lines.set(at.get(i), relations.get(i));
        }
        Files.write(diagram, lines);
    }

    private static boolean generated(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".puml") || name.endsWith(".adoc") || name.equals("README.md");
    }

    /** Every module with what it offers (its named interfaces and their types) and what it may use. */
    private static String overview() throws IOException {
        StringBuilder out = new StringBuilder();
        out.append("# Application modules\n\n")
                .append(
                        "Written by `ModulesTest` (`./mvnw test -Dtest=ModulesTest`) from the code; do not edit by hand.")
                .append(" Each package under `dev.shortgate` is a Spring Modulith application module, verified by")
                .append(" the same test: no cycles between modules, and a module uses only what another offers in a")
                .append(" named interface and what its `@ApplicationModule(allowedDependencies)` lets it use.")
                .append(" [`components.puml`](components.puml) draws them all; each module has a diagram")
                .append(" (`module-<name>.puml`) and a canvas (`module-<name>.adoc`).\n\n")
                .append("| Module | What it is | Named interfaces it offers | May use |\n")
                .append("|---|---|---|---|\n");
        for (ApplicationModule module : MODULES.stream()
                .sorted(Comparator.comparing(m -> m.getIdentifier().toString()))
                .toList()) {
            String offers = module.getNamedInterfaces().stream()
                    .filter(NamedInterface::isNamed)
                    .map(named -> "`" + named.getName() + "`: " + types(module, named))
                    .collect(Collectors.joining("<br>"));
            String uses = module.getAllowedDependencies(MODULES).stream()
                    .map(allowed -> "`" + allowed + "`")
                    .sorted()
                    .collect(Collectors.joining(", "));
            out.append("| [")
                    .append(module.getIdentifier())
                    .append("](module-")
                    .append(module.getIdentifier())
                    .append(".adoc) | ")
                    .append(summary(module))
                    .append(" | ")
                    .append(offers.isEmpty() ? "nothing" : offers)
                    .append(" | ")
                    .append(uses.isEmpty() ? "no other module" : uses)
                    .append(" |\n");
        }
        return out.toString();
    }

    /** The types of a named interface, by their names relative to the module's base package. */
    private static String types(ApplicationModule module, NamedInterface named) {
        int base = module.getBasePackage().getName().length() + 1;
        return named.asJavaClasses()
                .map(type -> type.getName().substring(base).replace('$', '.'))
                .distinct()
                .sorted()
                .map(name -> "`" + name + "`")
                .collect(Collectors.joining(", "));
    }

    /** The first sentence of the module's package documentation. */
    private static String summary(ApplicationModule module) throws IOException {
        Path info = Path.of("src/main/java", module.getBasePackage().getName().replace('.', '/'), "package-info.java");
        if (!Files.exists(info)) {
            return "";
        }
        String source = Files.readString(info);
        String doc = source.substring(source.indexOf("/**") + 3, source.indexOf("*/"))
                .replaceAll("(?m)^\\s*\\*\\s?", "")
                .replaceAll("\\{@link (?:[a-z]\\w*\\.)*([^{}]+)}", "`$1`")
                .replaceAll("\\{@code ((?:[^{}]|\\{[^{}]*})+)}", "`$1`")
                .replaceAll("\\s+", " ")
                .trim();
        int end = doc.indexOf(". ");
        return (end < 0 ? doc : doc.substring(0, end + 1)).replace("|", "\\|");
    }
}
