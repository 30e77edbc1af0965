package dev.shortgate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
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
                .writeModuleCanvases(CanvasOptions.defaults())
                .writeAggregatingDocument(DiagramOptions.defaults(), CanvasOptions.defaults());
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
        return name.endsWith(".puml") || name.endsWith(".adoc");
    }
}
