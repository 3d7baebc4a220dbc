/** Media: uploads read with limits, images re-encoded, voice messages checked, files stored and served. */
export { default as mediaRoutes, type MediaRoutesOptions } from './routes.ts';
export {
  processImage,
  detectImageType,
  IMAGE_MAX_INPUT_PIXELS,
  IMAGE_RENDITIONS,
  type ImageKind,
  type ProcessedImage,
  type ProcessImageResult,
} from './images.ts';
export { checkVoiceMessage, AUDIO_DURATION_SLACK_SECONDS, type VoiceMessage } from './audio.ts';
export {
  readUpload,
  isAcceptableFilename,
  mediaKey,
  thumbKey,
  UPLOAD_LIMITS,
  KEY_PREFIX,
  type UploadKind,
  type Upload,
  type UploadedFile,
  type ReadUploadOptions,
} from './upload.ts';
export {
  storeImage,
  storeVoiceMessage,
  deleteMediaUrls,
  keysOfUrl,
  type StoredImage,
  type StoredVoiceMessage,
} from './service.ts';
