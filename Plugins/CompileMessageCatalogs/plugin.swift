import PackagePlugin

/// Compiles each gettext catalog (`.po`) of a target into a `.mo` resource of that target
/// (`ko.po` becomes `ko.mo` in the target's resource bundle), with the package's own compiler
/// (`dragdrop-msgfmt`), so building needs no GNU gettext.
@main
struct CompileMessageCatalogs: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let compiler = try context.tool(named: "dragdrop-msgfmt").url
        return target.sourceFiles(withSuffix: "po").map { file in
            let language = file.url.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appending(path: "\(language).mo")
            return .buildCommand(
                displayName: "Compiling message catalog \(file.url.lastPathComponent)",
                executable: compiler,
                arguments: [file.url.path(), output.path()],
                inputFiles: [file.url],
                outputFiles: [output])
        }
    }
}
