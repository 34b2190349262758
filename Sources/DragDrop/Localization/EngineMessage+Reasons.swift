/// Why a drop's data could not be used, and what a widget says when a drop fails (L1): whole
/// sentences for each thing that was not added, and the reasons they end with, in the
/// catalogs like every other sentence. The engine's transfers, the GTK layer's readers of other
/// apps' data and its widgets say them through `Localization.format`.
///
/// A reason is a clause ("it is larger than the 1 MB that can be taken here"): no capital, no
/// final full stop, written to follow a colon.
extension EngineMessage {
    // MARK: What was not added

    package static let notAddedText = EngineMessage(
        "The text was not added: {reason}.", finishes: true,
        note:
            "A drop of text failed; {reason} is a clause saying why (it is larger than the 1 MB that can be taken here)."
    )
    package static let notAddedContact = EngineMessage(
        "The contact was not added: {reason}.", finishes: true,
        note: "A dropped contact (a vCard) was not added to a recipient field; {reason} says why.")
    package static let notAddedPicture = EngineMessage(
        "The picture was not added: {reason}.", finishes: true, note: "A dropped picture failed; {reason} says why.")
    package static let notAddedPhoto = EngineMessage(
        "The photo was not added: {reason}.", finishes: true, note: "A dropped photo failed; {reason} says why.")
    package static let notAddedFileList = EngineMessage(
        "The list of files was not added: {reason}.", finishes: true,
        note: "Files dropped from another app (a list of their addresses) failed; {reason} says why.")
    package static let notAddedDocument = EngineMessage(
        "The document was not added: {reason}.", finishes: true, note: "A dropped document failed; {reason} says why.")
    package static let notAddedContent = EngineMessage(
        "The content was not added: {reason}.", finishes: true,
        note: "Dropped content of no known kind failed; {reason} says why.")
    package static let notAddedNamed = EngineMessage(
        "{name} was not added: {reason}.", finishes: true,
        note: "Something an app named itself ({name}: The chart) was not added; {reason} says why.")

    // MARK: Reasons about the data

    package static let reasonCancelled = EngineMessage(
        "the transfer was cancelled", context: "reason", note: "Why a drop was not added: the person cancelled it.")
    package static let reasonLarger = EngineMessage(
        "it is larger than the {limit} that can be taken here", context: "reason",
        note: "Why a drop was not added; {limit} is an amount of data, 1 MB.")
    package static let reasonNotText = EngineMessage(
        "it is not valid text ({reason})", context: "reason",
        note: "Why a drop was not added; {reason} says what is wrong (invalid UTF-8 near byte 12).")
    package static let reasonNotURIList = EngineMessage(
        "it is not a valid URI list ({reason})", context: "reason",
        note: "Why dropped files were not added: their list of addresses is broken; {reason} says how.")
    package static let reasonNotPNG = EngineMessage(
        "it is not a valid PNG picture ({reason})", context: "reason",
        note: "Why a drop was not added; {reason} says how.")
    package static let reasonNotJPEG = EngineMessage(
        "it is not a valid JPEG picture ({reason})", context: "reason",
        note: "Why a drop was not added; {reason} says how.")
    package static let reasonNotPDF = EngineMessage(
        "it is not a valid PDF document ({reason})", context: "reason",
        note: "Why a drop was not added; {reason} says how.")
    package static let reasonNotType = EngineMessage(
        "it is not valid {type} ({reason})", context: "reason",
        note: "Why a drop was not added; {type} is a data type (application/json); {reason} says how.")
    package static let reasonNothingUsable = EngineMessage(
        "nothing offered can be used here", context: "reason",
        note: "Why a drop was not added: none of the kinds of data offered is taken here.")
    package static let reasonStillArriving = EngineMessage(
        "it was still arriving after {duration}", context: "reason",
        note: "Why a drop was given up: its data came too slowly; {duration}: 60 seconds.")
    package static let reasonLonger = EngineMessage(
        "it is longer than the {number} character {name} has room for",
        plural: "it is longer than the {number} characters {name} has room for", context: "reason",
        note: "Why dropped text was not added; {number}: how many characters fit (1,000); {name}: the field, Subject.")
    package static let reasonNul = EngineMessage(
        "it contains a NUL character, which text never holds", context: "reason",
        note: "Why dropped text was not added: it holds the character zero (NUL), so it is not really text.")
    package static let seconds = EngineMessage(
        "{count} second", plural: "{count} seconds", context: "duration", note: "A length of time, inside reasons.")
    package static let secondsFraction = EngineMessage(
        "{seconds} seconds", context: "duration", note: "A length of time that is not a whole number: 0.5 seconds.")

    // MARK: Reasons about pictures

    package static let pictureUnsupported = EngineMessage(
        "it is {type}, and only PNG and JPEG pictures are shown here", context: "reason",
        note: "Why a dropped picture was not added; {type}: its data type, image/gif.")
    package static let pictureNoHeader = EngineMessage(
        "it is not a {format} picture (its header is missing or broken)", context: "reason",
        note: "Why a dropped picture was not added; {format}: PNG or JPEG.")
    package static let pictureTooLarge = EngineMessage(
        "it declares {width} × {height} pixels, more than the {megapixels} megapixels a picture may have here",
        context: "reason", note: "Why a dropped picture was not added; numbers with their digits grouped (30,000).")
    package static let pictureDamaged = EngineMessage(
        "it is damaged ({reason})", context: "reason",
        note: "Why a dropped picture was not added; {reason}: what its decoder found (a broken chunk).")
    package static let pictureUndecodable = EngineMessage(
        "it could not be decoded ({reason})", context: "reason",
        note: "Why a dropped picture was not added; {reason}: what its decoder said.")

    // MARK: Reasons about other apps

    package static let nothingArrived = EngineMessage(
        "nothing arrived from the other app for {duration}", context: "reason",
        note: "Why a drop from another app was given up: it sent nothing; {duration}: 15 seconds.")
    package static let sourceQuit = EngineMessage(
        "the app the content was dragged from quit before the data arrived", context: "reason",
        note: "Why a drop from another app failed: that app quit.")
    package static let otherAppQuitNamed = EngineMessage(
        "'{app}' quit before it finished taking the drop.", finishes: true,
        note: "A drop into another app failed: {app} quit while taking it.")
    package static let otherAppQuit = EngineMessage(
        "The other app quit before it finished taking the drop.",
        note: "A drop into another app (name unknown) failed: it quit while taking it.")
    package static let otherAppSilentNamed = EngineMessage(
        "'{app}' did not finish taking the drop for {count} second.",
        plural: "'{app}' did not finish taking the drop for {count} seconds.", finishes: true,
        note: "A drop into another app was given up: {app} went quiet.")
    package static let otherAppSilent = EngineMessage(
        "The other app did not finish taking the drop for {count} second.",
        plural: "The other app did not finish taking the drop for {count} seconds.",
        note: "A drop into another app (name unknown) was given up: it went quiet.")
    package static let cancelledWhileTakingNamed = EngineMessage(
        "cancelled while '{app}' was still taking it.", finishes: true,
        note: "A drop into another app failed: the person cancelled while {app} was still taking it.")
    package static let cancelledWhileTaking = EngineMessage(
        "cancelled while the other app was still taking it.",
        note: "A drop into another app (name unknown) failed: the person cancelled while it was still taking it.")
    package static let saveOnlyOverX11 = EngineMessage(
        "the other app's file can be saved here only over X11", context: "reason",
        note:
            "Why a file another app offers to save into a folder (direct save) was not saved: the window is not on X11."
    )
    package static let couldNotSaveNamed = EngineMessage(
        "{app} could not save the file", context: "reason",
        note: "Why a file another app offered to save into a folder was not saved: {app} said it failed.")
    package static let couldNotSave = EngineMessage(
        "the other app could not save the file", context: "reason",
        note: "Why a file another app (name unknown) offered to save into a folder was not saved.")
    package static let noTransferKey = EngineMessage(
        "the other app sent no transfer key", context: "reason",
        note: "Why files from a sandboxed app failed: the file transfer portal's key was empty.")
    package static let badTransferKey = EngineMessage(
        "the transfer key holds characters a key never has", context: "reason",
        note: "Why files from a sandboxed app failed: the file transfer portal's key was garbled.")
    package static let portalNotRunning = EngineMessage(
        "the file transfer portal is not running", context: "reason",
        note: "Why files could not go to or come from a sandboxed app: the desktop's file transfer portal is missing.")
    package static let portalRefused = EngineMessage(
        "the file transfer portal refused the files: {reason}", context: "reason",
        note: "Why files could not go to a sandboxed app; {reason}: what the portal said.")
    package static let portalGaveNothing = EngineMessage(
        "the file transfer portal gave no files for the drop: {reason}", context: "reason",
        note: "Why files from a sandboxed app did not arrive; {reason}: what the portal said.")
    package static let portalTookNoFiles = EngineMessage(
        "The portal took no files.", note: "The file transfer portal refused files, without saying why.")
    package static let portalGaveNoFiles = EngineMessage(
        "The portal gave no files.", note: "The file transfer portal gave no files, without saying why.")
    package static let transferHoldsNoFiles = EngineMessage(
        "the transfer holds no files", context: "reason",
        note: "Why files from a sandboxed app did not arrive: the portal's transfer was empty.")
    package static let readingFailed = EngineMessage(
        "Reading the dropped data failed.", note: "Another app's dropped data could not be read, no reason given.")
    package static let otherAppSentNothing = EngineMessage(
        "The other app sent no data.", note: "Another app's drop brought no data at all.")
    package static let noFilesHere = EngineMessage(
        "The drag holds no files on this computer.",
        note: "Another app asked our drag for files, but it holds none that are on this computer.")
    package static let otherAppCancelled = EngineMessage(
        "The other app cancelled the transfer.", note: "Another app stopped taking our drag's data.")
    package static let writingFailed = EngineMessage(
        "Writing the drag's data failed.", note: "Our drag's data could not be written to another app, no reason given."
    )

    // MARK: Reasons about the web

    package static let notWebAddress = EngineMessage(
        "{address} is not a web address", context: "reason",
        note: "Why a dropped link was not downloaded: it is not http or https; {address}: the link.")
    package static let webTookLonger = EngineMessage(
        "{address} took longer than {duration}", context: "reason",
        note: "Why a dropped link's download was given up; {duration}: 30 seconds.")
    package static let webNoAnswer = EngineMessage(
        "{address} did not answer over HTTP", context: "reason", note: "Why a dropped link's download failed.")
    package static let webServerAnswered = EngineMessage(
        "the web server answered {status} ({reason})", context: "reason",
        note:
            "Why a dropped link's download failed; {status}: an HTTP status, 404; {reason}: the server's words for it.")
    package static let webRedirectedTooOften = EngineMessage(
        "{address} redirected more than {count} time", plural: "{address} redirected more than {count} times",
        context: "reason", note: "Why a dropped link's download failed: it sent the download elsewhere too often.")
    package static let webRedirectedAway = EngineMessage(
        "{address} redirected to {target}, not a web address", context: "reason",
        note: "Why a dropped link's download failed: it sent the download to a non-web address.")
    package static let webSilent = EngineMessage(
        "{address} sent nothing for too long", context: "reason", note: "Why a dropped link's download was given up.")

    // MARK: Reasons about the data's form (the engine's checks)

    package static let vcardNoBegin = EngineMessage(
        "it has no BEGIN:VCARD line", context: "reason",
        note: "Why a dropped contact (vCard) is not valid; BEGIN:VCARD is the format's first line, kept as it is.")
    package static let vcardNoEmail = EngineMessage(
        "the contact has no email address", context: "reason", note: "Why a dropped contact cannot be a recipient.")
    package static let vcardBadEmail = EngineMessage(
        "the email address '{address}' is not valid", context: "reason",
        note: "Why a dropped contact cannot be a recipient; {address}: its email address.")
    package static let notInMemory = EngineMessage(
        "it did not arrive in memory", context: "reason",
        note: "Why dropped data could not be read: it came as a file where it was expected in memory.")
    package static let namesNoAddress = EngineMessage(
        "it names no address", context: "reason", note: "Why a dropped list of addresses is not valid: it is empty.")
    package static let holdsNoPicture = EngineMessage(
        "it holds no picture", context: "reason", note: "Why a dropped web page fragment gave no picture.")
    package static let notAbsoluteAddress = EngineMessage(
        "{address} is not an absolute address", context: "reason",
        note: "Why a dropped address is not valid; {address}: the address.")
    package static let onAnotherComputer = EngineMessage(
        "{address} is on another computer", context: "reason",
        note: "Why a dropped file address cannot be read: it names another machine.")
    package static let onTheWeb = EngineMessage(
        "{address} is on the web, and this app does not download", context: "reason",
        note: "Why a dropped web address gave no picture: the app does not download.")
    package static let dataAddressNoComma = EngineMessage(
        "the data address has no comma", context: "reason",
        note: "Why a dropped data: address is not valid (it must have a comma before its data).")
    package static let dataAddressNotBase64 = EngineMessage(
        "the data address is not valid base64", context: "reason", note: "Why a dropped data: address is not valid.")
    package static let dataAddressBadPercent = EngineMessage(
        "the data address is not percent-encoded properly", context: "reason",
        note: "Why a dropped data: address is not valid.")
    package static let notConverted = EngineMessage(
        "it could not be converted ({reason})", context: "reason",
        note: "Why dropped data could not be used: turning it into the kind asked for failed; {reason} says how.")
    package static let endsMidUTF8 = EngineMessage(
        "it ends in the middle of a UTF-8 sequence", context: "reason",
        note: "Why dropped text is not valid: its last character is cut off.")
    package static let invalidUTF8 = EngineMessage(
        "invalid UTF-8 near byte {offset}", context: "reason",
        note: "Why dropped text is not valid; {offset}: where the bad bytes are, counted from 0.")
    package static let notADirectory = EngineMessage(
        "it is not a directory", context: "reason", note: "Why a folder for dropped files cannot be used.")
    package static let cannotBeCreated = EngineMessage(
        "it cannot be created ({reason})", context: "reason",
        note: "Why a folder for dropped files cannot be used; {reason}: what the system said.")
    package static let noPNGSignature = EngineMessage(
        "it does not start with the PNG signature", context: "reason", note: "Why dropped PNG data is not valid.")
    package static let noJPEGMarker = EngineMessage(
        "it does not start with a JPEG marker", context: "reason", note: "Why dropped JPEG data is not valid.")
    package static let noPDFHeader = EngineMessage(
        "it does not start with %PDF-", context: "reason",
        note: "Why dropped PDF data is not valid; %PDF- is how every PDF file begins, kept as it is.")

    // MARK: Widgets' failures and refusals

    package static let noOwner = EngineMessage(
        "Nothing in this window owns '{destination}' any more.",
        note: "A drop failed: the place it was dropped on went away during the drop.")
    package static let takesOnlyText = EngineMessage(
        "{name} takes only text.", note: "A refusal: something else than text dropped on a text field {name}.")
    package static let takesContacts = EngineMessage(
        "{name} takes contacts and addresses.",
        note: "A refusal: something else than a contact or an address dropped on a recipient field {name}.")
    package static let textFieldGone = EngineMessage(
        "The text field is gone.", note: "A drop failed: its text field was closed before the data arrived.")
    package static let textViewGone = EngineMessage(
        "The text view is gone.", note: "A drop failed: its text view was closed before the data arrived.")
    package static let outlineGone = EngineMessage(
        "The outline is gone.", note: "A drop failed: its outline was closed before the data arrived.")
    package static let insertionPointLost = EngineMessage(
        "The insertion point could not be kept.",
        note: "A drop into text failed: the place it was dropped at could not be found again.")
    package static let segmentsTakeNoDrops = EngineMessage(
        "{name} takes no drops; hold content over a segment to open it.",
        note: "A refusal: content dropped on a segmented control {name}, whose segments only spring open.")
    package static let takesNoDrops = EngineMessage(
        "{name} takes no drops.", note: "A refusal: content dropped on a button {name} that only springs open.")
    package static let notAvailable = EngineMessage(
        "{name} is not available.", note: "A drop failed: the list or outline {name} has no data any more.")
    package static let takesNothing = EngineMessage(
        "{name} takes nothing.", note: "A refusal: content dropped on an item {name} that takes nothing.")
    package static let noSuchFolder = EngineMessage(
        "{name} has no such folder any more.", note: "A drop failed: the folder it was dropped in went away.")
    package static let nothingCalled = EngineMessage(
        "Nothing in {name} is called '{destination}' any more.",
        note: "A drop failed: the item it was dropped on in the list {name} went away.")
    package static let clipboardNoPicture = EngineMessage(
        "The clipboard holds no picture that can be read.", note: "A paste failed: no picture could be read.")
    package static let pictureNotSaved = EngineMessage(
        "The picture could not be saved as PNG.", note: "A paste failed: the copied picture could not be converted.")
    package static let clipboardUnreadable = EngineMessage(
        "The clipboard could not be read.", note: "A paste failed, no reason given.")
    package static let clipboardNoText = EngineMessage("The clipboard holds no text.", note: "A paste of text failed.")

    // MARK: More reasons about the data's form

    package static let notFileNorWeb = EngineMessage(
        "{address} is neither a file of this computer nor a web address (http, https)", context: "reason",
        note: "Why a dropped address gave no picture; http and https are kept as they are.")
    package static let notAnImage = EngineMessage(
        "{what} is not a PNG, JPEG, GIF, WebP or BMP image", context: "reason",
        note:
            "Why a drop gave no picture; {what}: a file's path, a web address, or one of the phrases of context 'image source'."
    )
    package static let droppedTypeData = EngineMessage(
        "the dropped {type} data", context: "image source",
        note: "What was checked for a picture, inside a reason as {what}; {type}: a data type, image/png.")
    package static let droppedBytes = EngineMessage(
        "the dropped bytes", context: "image source", note: "What was checked for a picture, inside a reason as {what}."
    )
    package static let theDataAddress = EngineMessage(
        "the data address", context: "image source",
        note: "What was checked for a picture (a data: address holding the picture), inside a reason as {what}.")
    package static let offeredAs = EngineMessage(
        "it is {type} data offered as {declared}", context: "reason",
        note: "Why a dropped picture is not valid: its bytes are of one type ({type}) and it said another ({declared})."
    )
    package static let notUTF8 = EngineMessage(
        "it is not UTF-8", context: "reason", note: "Why dropped text is not valid: it is in another encoding.")
    package static let cannotOpen = EngineMessage(
        "it cannot be opened for reading", context: "reason", note: "Why a file could not be read (after its path).")
    package static let cannotCreate = EngineMessage(
        "it cannot be created", context: "reason", note: "Why a file could not be written (after its path).")
    package static let alreadyClosed = EngineMessage(
        "it is already closed", context: "reason", note: "Why a file being written could not take more data.")
    package static let longerThanDeclared = EngineMessage(
        "it is longer than the {size} it declared", context: "reason",
        note: "Why dropped data is not valid: more arrived than its sender said; {size}: an amount of data, 12 KB.")
    package static let endedAfter = EngineMessage(
        "it ended after {received} of {size}", context: "reason",
        note: "Why dropped data stopped: less arrived than its sender said; amounts of data, 4 KB of 12 KB.")
    package static let symbolicLink = EngineMessage(
        "it is a symbolic link, and links are not followed", context: "reason",
        note: "Why a dropped file was not read (after its path).")
    package static let doesNotExist = EngineMessage(
        "it does not exist", context: "reason", note: "Why a dropped file was not read (after its path).")
    package static let notRegularFile = EngineMessage(
        "it is not a regular file", context: "reason",
        note: "Why a dropped file was not read: it is a folder, a device or the like (after its path).")
    package static let lineTooLong = EngineMessage(
        "line {line} is longer than {size}", context: "reason",
        note: "Why a dropped list of addresses is not valid; {line}: a line number; {size}: an amount of data.")
    package static let lineNotAbsolute = EngineMessage(
        "line {line} is not an absolute URI: {text}", context: "reason",
        note: "Why a dropped list of addresses is not valid; {text}: the line as it came.")
    package static let lineRelativePath = EngineMessage(
        "line {line} has a relative file path", context: "reason",
        note: "Why a dropped list of addresses is not valid: a file address without its full path.")
    package static let lineDotDot = EngineMessage(
        "line {line} has a '..' path segment", context: "reason",
        note: "Why a dropped list of addresses is not valid: a path goes up a folder with '..', kept as it is.")
    package static let couldNotDownload = EngineMessage(
        "{address} could not be downloaded ({reason})", context: "reason",
        note: "Why a dropped link gave nothing; {reason}: what the network said.")
    package static let saidWouldSave = EngineMessage(
        "{app} said it would save the file here, but nothing arrived for {duration}", context: "reason",
        note: "Why a file another app offered to save into a folder never came; {app}: the app, or 'the other app'.")
    package static let stoppedSaving = EngineMessage(
        "{app} stopped saving the file for {duration}", context: "reason",
        note: "Why a file another app was saving into a folder was given up; {app}: the app, or 'the other app'.")
    package static let theOtherApp = EngineMessage(
        "the other app", context: "app",
        note: "An app whose name is not known, as {app} inside reasons: the other app stopped saving the file.")
    package static let dropIsOver = EngineMessage(
        "the drop is over", context: "reason",
        note: "Why a read of another app's dropped data stopped: the drop ended (it was finished or cancelled) first.")

    static let reasons: [EngineMessage] = [
        notAddedText, notAddedContact, notAddedPicture, notAddedPhoto, notAddedFileList, notAddedDocument,
        notAddedContent, notAddedNamed,
        reasonCancelled, reasonLarger, reasonNotText, reasonNotURIList, reasonNotPNG, reasonNotJPEG, reasonNotPDF,
        reasonNotType, reasonNothingUsable, reasonStillArriving, reasonLonger, reasonNul, seconds, secondsFraction,
        pictureUnsupported, pictureNoHeader, pictureTooLarge, pictureDamaged, pictureUndecodable,
        nothingArrived, sourceQuit, otherAppQuitNamed, otherAppQuit, otherAppSilentNamed, otherAppSilent,
        cancelledWhileTakingNamed, cancelledWhileTaking, saveOnlyOverX11, couldNotSaveNamed, couldNotSave,
        noTransferKey, badTransferKey, portalNotRunning, portalRefused, portalGaveNothing, portalTookNoFiles,
        portalGaveNoFiles, transferHoldsNoFiles, readingFailed, otherAppSentNothing, noFilesHere, otherAppCancelled,
        writingFailed,
        notWebAddress, webTookLonger, webNoAnswer, webServerAnswered, webRedirectedTooOften, webRedirectedAway,
        webSilent,
        vcardNoBegin, vcardNoEmail, vcardBadEmail, notInMemory, namesNoAddress, holdsNoPicture, notAbsoluteAddress,
        onAnotherComputer, onTheWeb, dataAddressNoComma, dataAddressNotBase64, dataAddressBadPercent, notConverted,
        endsMidUTF8, invalidUTF8, notADirectory, cannotBeCreated, noPNGSignature, noJPEGMarker, noPDFHeader,
        noOwner, takesOnlyText, takesContacts, textFieldGone, textViewGone, outlineGone, insertionPointLost,
        segmentsTakeNoDrops, takesNoDrops, notAvailable, takesNothing, noSuchFolder, nothingCalled,
        clipboardNoPicture, pictureNotSaved, clipboardUnreadable, clipboardNoText,
        notFileNorWeb, notAnImage, droppedTypeData, droppedBytes, theDataAddress, offeredAs, notUTF8, cannotOpen,
        cannotCreate, alreadyClosed, longerThanDeclared, endedAfter, symbolicLink, doesNotExist, notRegularFile,
        lineTooLong, lineNotAbsolute, lineRelativePath, lineDotDot, couldNotDownload,
        saidWouldSave, stoppedSaving, theOtherApp, dropIsOver,
    ]
}
