// StyledRuns.swift (a link to Sources/DragDropGTK/Text/StyledRuns.swift) compiled on its own,
// without GTK: this module is the HTML reader of styled text exactly as DragDropGTK builds it.
// DragDropGTK gives that file Foundation through its other files; here this file does.
import Foundation
